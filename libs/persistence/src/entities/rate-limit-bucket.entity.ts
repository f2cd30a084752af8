import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Shared fixed-window rate-limit counters (used on the server backend so replicas share limits). */
@Entity({ name: 'rate_limit_buckets' })
export class RateLimitBucketEntity {
  @PrimaryColumn({ type: 'varchar', length: 255 })
  key!: string;

  @Column({ type: 'integer' })
  hits!: number;

  @Column()
  expiresAt!: Date;

  @Column({ type: Date, nullable: true })
  blockedUntil!: Date | null;
}
