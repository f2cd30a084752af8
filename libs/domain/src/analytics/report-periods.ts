import { dayStart, type TimeRange } from '../budget';

import { addDays } from './time-buckets';

/** The report periods the interface lists, in the order `GET /reports/periods` answers them. */
export const REPORT_PERIODS = ['daily', 'weekly', 'monthly'] as const;
export type ReportPeriod = (typeof REPORT_PERIODS)[number];

/** The report templates; `comprehensive` holds the sections of all the others. */
export const REPORT_TEMPLATES = [
  'spending_summary',
  'performance_metrics',
  'task_completion',
  'risk_trends',
  'comprehensive',
] as const;
export type ReportTemplate = (typeof REPORT_TEMPLATES)[number];

/** The sections a report holds. */
export type ReportSection = 'spending' | 'performance' | 'task_completion' | 'risk_trends';

const TEMPLATE_SECTIONS: Readonly<Record<ReportTemplate, readonly ReportSection[]>> = {
  spending_summary: ['spending'],
  performance_metrics: ['performance'],
  task_completion: ['task_completion'],
  risk_trends: ['risk_trends'],
  comprehensive: ['spending', 'performance', 'task_completion', 'risk_trends'],
};

/** The sections a template builds. */
export function templateSections(template: ReportTemplate): readonly ReportSection[] {
  return TEMPLATE_SECTIONS[template];
}

/**
 * The last complete period before `now`: daily is the previous day (00:00 to 00:00 UTC), weekly
 * the previous Monday to this week's Monday, monthly the previous 1st to this month's 1st.
 */
export function previousReportPeriod(period: ReportPeriod, now: Date): TimeRange {
  const today = dayStart(now);
  switch (period) {
    case 'daily':
      return { start: addDays(today, -1), end: today };
    case 'weekly': {
      // getUTCDay: Sunday 0 … Saturday 6; days since this week's Monday.
      const sinceMonday = (today.getUTCDay() + 6) % 7;
      const thisMonday = addDays(today, -sinceMonday);
      return { start: addDays(thisMonday, -7), end: thisMonday };
    }
    case 'monthly': {
      const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
      return { start: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)), end };
    }
  }
}
