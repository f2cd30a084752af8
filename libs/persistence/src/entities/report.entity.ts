import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

import type { JsonObject } from './json';

/**
 * A generated report: its period, template and content. Written by the reports module only. A
 * scheduled report carries `schedule_key` (period, template and start), unique, so each period's
 * scheduled report is stored once whichever replica builds it; on-demand reports leave it null.
 */
@Entity({ name: 'reports' })
@Index(['generatedAt', 'id'])
@Index(['scheduleKey'], { unique: true })
export class ReportEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  /** daily | weekly | monthly */
  @Column({ type: 'varchar', length: 16 })
  period!: string;

  @Column({ type: 'varchar', length: 32 })
  template!: string;

  @Column()
  periodStart!: Date;

  @Column()
  periodEnd!: Date;

  /** The sections the report holds (spending, performance, task_completion, risk_trends), for list rows. */
  @Column({ type: 'simple-json' })
  sections!: string[];

  /** The sections' content, keyed by section name. */
  @Column({ type: 'simple-json' })
  content!: JsonObject;

  /** manual | scheduled */
  @Column({ type: 'varchar', length: 16 })
  trigger!: string;

  @Column({ type: 'varchar', length: 96, nullable: true })
  scheduleKey!: string | null;

  /** The user who asked for it, or `system` for the schedule. */
  @Column({ type: 'varchar', length: 256 })
  generatedBy!: string;

  @Column()
  generatedAt!: Date;
}
