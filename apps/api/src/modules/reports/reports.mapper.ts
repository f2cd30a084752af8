import type { ReportPeriod, ReportTemplate } from '@app/domain';
import { rawIso, rawJson, type ReportEntity } from '@app/persistence';

import type { ReportResponseDto, ReportSummaryDto } from './dto/report.dto';

/** The columns a list row reads (the content stays in the database). */
export const REPORT_ROW_COLUMNS = [
  'id',
  'period',
  'template',
  'period_start',
  'period_end',
  'trigger',
  'generated_by',
  'sections',
  'generated_at',
] as const;

/** A list row as the database answers it. */
export interface ReportRow {
  id: string;
  period: string;
  template: string;
  period_start: unknown;
  period_end: unknown;
  trigger: string;
  generated_by: string;
  sections: unknown;
  generated_at: unknown;
}

/** The flags of the sections a report holds. */
function flags(sections: readonly string[]) {
  return {
    has_spending: sections.includes('spending'),
    has_performance: sections.includes('performance'),
    has_task_completion: sections.includes('task_completion'),
    has_risk_trends: sections.includes('risk_trends'),
  };
}

/** A stored report with its content. */
export function toReport(row: ReportEntity): ReportResponseDto {
  return {
    id: row.id,
    period: row.period as ReportPeriod,
    template: row.template as ReportTemplate,
    start: row.periodStart.toISOString(),
    end: row.periodEnd.toISOString(),
    trigger: row.trigger as 'manual' | 'scheduled',
    generated_by: row.generatedBy,
    ...flags(row.sections),
    generated_at: row.generatedAt.toISOString(),
    content: row.content,
  };
}

/** A list row, mapped once from the raw columns. */
export function toReportSummary(row: ReportRow): ReportSummaryDto {
  return {
    id: row.id,
    period: row.period as ReportPeriod,
    template: row.template as ReportTemplate,
    start: rawIso(row.period_start),
    end: rawIso(row.period_end),
    trigger: row.trigger as 'manual' | 'scheduled',
    generated_by: row.generated_by,
    ...flags(rawJson<string[]>(row.sections)),
    generated_at: rawIso(row.generated_at),
  };
}
