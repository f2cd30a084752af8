import { previousReportPeriod, REPORT_TEMPLATES, templateSections } from './report-periods';

const at = (iso: string): Date => new Date(iso);
const range = (start: string, end: string) => ({ start: at(start), end: at(end) });

describe('previousReportPeriod', () => {
  it('should answer the previous UTC day for daily, even one millisecond after midnight', () => {
    expect(previousReportPeriod('daily', at('2026-03-01T00:00:00.001Z'))).toEqual(
      range('2026-02-28T00:00:00Z', '2026-03-01T00:00:00Z'),
    );
    expect(previousReportPeriod('daily', at('2026-03-01T23:59:59.999Z'))).toEqual(
      range('2026-02-28T00:00:00Z', '2026-03-01T00:00:00Z'),
    );
  });

  it('should answer the previous Monday to this Monday for weekly', () => {
    // 2026-11-25 is a Wednesday; this week's Monday is the 23rd.
    expect(previousReportPeriod('weekly', at('2026-11-25T12:00:00Z'))).toEqual(
      range('2026-11-16T00:00:00Z', '2026-11-23T00:00:00Z'),
    );
  });

  it('should count a Monday as the start of its own week and a Sunday as the end of the week before', () => {
    expect(previousReportPeriod('weekly', at('2026-11-23T00:00:00Z'))).toEqual(
      range('2026-11-16T00:00:00Z', '2026-11-23T00:00:00Z'),
    );
    expect(previousReportPeriod('weekly', at('2026-11-22T23:59:59Z'))).toEqual(
      range('2026-11-09T00:00:00Z', '2026-11-16T00:00:00Z'),
    );
  });

  it('should answer the previous month for monthly, across a year boundary', () => {
    expect(previousReportPeriod('monthly', at('2026-01-01T00:00:00Z'))).toEqual(
      range('2025-12-01T00:00:00Z', '2026-01-01T00:00:00Z'),
    );
    expect(previousReportPeriod('monthly', at('2024-03-31T23:00:00Z'))).toEqual(
      range('2024-02-01T00:00:00Z', '2024-03-01T00:00:00Z'),
    );
  });
});

describe('templateSections', () => {
  it('should give each single template its section and comprehensive all four', () => {
    expect(REPORT_TEMPLATES.map((t) => templateSections(t).length)).toEqual([1, 1, 1, 1, 4]);
    expect(templateSections('comprehensive')).toEqual(['spending', 'performance', 'task_completion', 'risk_trends']);
  });
});
