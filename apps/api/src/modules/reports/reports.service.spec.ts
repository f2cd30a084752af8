import { ErrorCode, NotFoundError } from '@app/domain';
import type { ReportEntity } from '@app/persistence';
import { actorContext, makeServiceUnderTest } from '@app/testing';

import { ReportContentBuilder } from './report-content.builder';
import { ReportsRepository } from './reports.repository';
import { ReportsService, SCHEDULE_ACTOR } from './reports.service';

const NOW = new Date('2026-11-25T13:45:00.000Z');
const GENERATED = new Date('2026-11-25T13:45:01.000Z');
const COMPLETION = { runs: 2, completed: 1, failed: 1, completion_rate: 0.5, by_department: [] };

function reportRow(overrides: Partial<ReportEntity> = {}): ReportEntity {
  return {
    id: 'report-1',
    period: 'daily',
    template: 'task_completion',
    periodStart: new Date('2026-11-24T00:00:00.000Z'),
    periodEnd: new Date('2026-11-25T00:00:00.000Z'),
    sections: ['task_completion'],
    content: { task_completion: COMPLETION },
    trigger: 'manual',
    scheduleKey: null,
    generatedBy: 'user-1',
    generatedAt: GENERATED,
    ...overrides,
  };
}

function build() {
  const unit = makeServiceUnderTest(ReportsService);
  const m = { sut: unit.sut, reports: unit.mock(ReportsRepository), content: unit.mock(ReportContentBuilder) };
  m.content.build.mockResolvedValue({ task_completion: COMPLETION });
  m.reports.insert.mockResolvedValue(undefined);
  return m;
}

describe(ReportsService.name, () => {
  it('should build the template over the previous week and store it with its sections', async () => {
    const { sut, reports, content } = build();

    const report = await sut.generate(
      actorContext({ userId: 'user-7' }),
      { period: 'weekly', template: 'task_completion' },
      NOW,
    );

    expect(content.build).toHaveBeenCalledWith(['task_completion'], {
      start: new Date('2026-11-16T00:00:00.000Z'),
      end: new Date('2026-11-23T00:00:00.000Z'),
    });
    expect(reports.insert).toHaveBeenCalledWith(
      expect.objectContaining({
        sections: ['task_completion'],
        trigger: 'manual',
        scheduleKey: null,
        generatedBy: 'user-7',
      }),
    );
    expect(report).toMatchObject({
      period: 'weekly',
      template: 'task_completion',
      start: '2026-11-16T00:00:00.000Z',
      end: '2026-11-23T00:00:00.000Z',
      has_spending: false,
      has_performance: false,
      has_task_completion: true,
      has_risk_trends: false,
      content: { task_completion: COMPLETION },
    });
  });

  it('should build the comprehensive report when no template is named', async () => {
    const { sut, content } = build();

    await sut.generate(actorContext(), { period: 'daily' }, NOW);

    expect(content.build.mock.calls[0]?.[0]).toEqual(['spending', 'performance', 'task_completion', 'risk_trends']);
  });

  it('should store a scheduled report under its period key once', async () => {
    const { sut, reports } = build();
    reports.hasScheduled.mockResolvedValueOnce(false).mockResolvedValueOnce(true);

    await expect(sut.generateScheduled('monthly', NOW)).resolves.toBe(true);
    await expect(sut.generateScheduled('monthly', NOW)).resolves.toBe(false);

    expect(reports.hasScheduled).toHaveBeenCalledWith('monthly:2026-10-01T00:00:00.000Z');
    expect(reports.insert).toHaveBeenCalledTimes(1);
    expect(reports.insert).toHaveBeenCalledWith(
      expect.objectContaining({
        template: 'comprehensive',
        trigger: 'scheduled',
        scheduleKey: 'monthly:2026-10-01T00:00:00.000Z',
        generatedBy: SCHEDULE_ACTOR,
      }),
    );
  });

  it('should answer false when another caller stored the scheduled report first, and rethrow other failures', async () => {
    const { sut, reports } = build();
    reports.hasScheduled.mockResolvedValueOnce(false).mockResolvedValueOnce(true);
    reports.insert.mockRejectedValueOnce(new Error('unique violation'));
    await expect(sut.generateScheduled('daily', NOW)).resolves.toBe(false);

    reports.hasScheduled.mockResolvedValue(false);
    reports.insert.mockRejectedValueOnce(new Error('disk full'));
    await expect(sut.generateScheduled('daily', NOW)).rejects.toThrow('disk full');
  });

  it('should map list rows from raw columns without content', async () => {
    const { sut, reports } = build();
    reports.page.mockResolvedValue({
      items: [
        {
          id: 'report-1',
          period: 'daily',
          template: 'comprehensive',
          period_start: '2026-11-24 00:00:00.000',
          period_end: '2026-11-25 00:00:00.000',
          trigger: 'scheduled',
          generated_by: 'system',
          sections: '["performance","task_completion"]',
          generated_at: '2026-11-25 00:01:00.000',
        },
      ],
      total: 4,
    });

    const page = await sut.list({ offset: 3, limit: 1 });

    expect(page).toMatchObject({ total: 4, offset: 3, limit: 1 });
    expect(page.items).toEqual([
      {
        id: 'report-1',
        period: 'daily',
        template: 'comprehensive',
        start: '2026-11-24T00:00:00.000Z',
        end: '2026-11-25T00:00:00.000Z',
        trigger: 'scheduled',
        generated_by: 'system',
        has_spending: false,
        has_performance: true,
        has_task_completion: true,
        has_risk_trends: false,
        generated_at: '2026-11-25T00:01:00.000Z',
      },
    ]);
  });

  it('should answer a stored report, and ReportNotFound for an unknown id', async () => {
    const { sut, reports } = build();
    reports.findById.mockResolvedValueOnce(reportRow()).mockResolvedValueOnce(null);

    await expect(sut.get('report-1')).resolves.toMatchObject({ id: 'report-1', has_task_completion: true });
    const failure = sut.get('missing');
    await expect(failure).rejects.toBeInstanceOf(NotFoundError);
    await expect(failure).rejects.toMatchObject({ code: ErrorCode.ReportNotFound });
  });

  it('should list the three periods', () => {
    expect(build().sut.periods()).toEqual(['daily', 'weekly', 'monthly']);
  });
});
