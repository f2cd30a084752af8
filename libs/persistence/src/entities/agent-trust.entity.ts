import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * An agent's progressive-trust state: the tool access level trust has brought it to, the last score,
 * a promotion waiting for a person's approval, and the milestone strategy's clocks. Written by the
 * security module only; every change is also a `trust_change` security record.
 */
@Entity({ name: 'agent_trust' })
export class AgentTrustEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  agentId!: string;

  /** The strategy of the last evaluation: disabled, weighted, per_category, milestone. */
  @Column({ type: 'varchar', length: 16 })
  strategy!: string;

  /** The access level trust has reached (the agent's `tools.access_level` follows it). */
  @Column({ type: 'varchar', length: 16 })
  level!: string;

  /** The weighted strategy's last score (0–1); null under the other strategies. */
  @Column({ type: 'float', nullable: true })
  score!: number | null;

  /** A promotion waiting for a person (always the one into elevated). */
  @Column({ type: 'varchar', length: 16, nullable: true })
  pendingLevel!: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  pendingApprovalId!: string | null;

  /** Finished runs counted when the agent last changed level (the milestone strategy counts from here). */
  @Column({ type: 'integer', default: 0 })
  runsAtLastChange!: number;

  @Column({ type: Date, nullable: true })
  lastChangedAt!: Date | null;

  @Column()
  lastVerifiedAt!: Date;

  @Column()
  evaluatedAt!: Date;
}
