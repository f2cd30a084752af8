import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The organisation. One row per installation: the primary key is the fixed id
 * {@link COMPANY_SINGLETON_ID}, so two concurrent creations cannot both insert.
 */
@Entity({ name: 'companies' })
export class CompanyEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  @Column({ type: 'text', default: '' })
  description!: string;

  /** CompanyType: the template's kind, or `custom`. */
  @Column({ type: 'varchar', length: 64 })
  type!: string;

  @Column({ type: 'varchar', length: 100, nullable: true })
  templateName!: string | null;

  @Column({ type: 'varchar', length: 16 })
  autonomyLevel!: string;

  @Column({ type: 'float' })
  budgetMonthly!: number;

  @Column({ type: 'varchar', length: 3 })
  currency!: string;

  @Column({ type: 'varchar', length: 32 })
  communicationPattern!: string;

  @Column({ type: 'varchar', length: 32 })
  workflow!: string;

  @Column({ type: 'varchar', length: 32, nullable: true })
  ceremonyStrategy!: string | null;

  @Column({ type: 'integer', default: 1 })
  version!: number;

  @Column()
  createdAt!: Date;

  @Column()
  updatedAt!: Date;
}

export const COMPANY_SINGLETON_ID = 'company';
