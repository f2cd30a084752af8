import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One call to a model provider, successful or not: the source of provider health (24-hour call
 * count, error rate, latency, tokens, cost) and of quota usage. Probes are recorded too.
 */
@Entity({ name: 'provider_calls' })
@Index(['provider', 'startedAt'])
@Index(['startedAt'])
export class ProviderCallEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  @Column({ type: 'varchar', length: 100 })
  provider!: string;

  @Column({ type: 'varchar', length: 256 })
  model!: string;

  /** chat | stream | probe | list_models | embedding */
  @Column({ type: 'varchar', length: 16 })
  kind!: string;

  @Column()
  startedAt!: Date;

  @Column({ type: 'integer' })
  latencyMs!: number;

  @Column({ type: 'boolean' })
  success!: boolean;

  /** The 7xxx code of a failed call. */
  @Column({ type: 'integer', nullable: true })
  errorCode!: number | null;

  @Column({ type: 'integer', default: 0 })
  inputTokens!: number;

  @Column({ type: 'integer', default: 0 })
  outputTokens!: number;

  @Column({ type: 'float', default: 0 })
  cost!: number;
}
