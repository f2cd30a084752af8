import { randomUUID } from 'node:crypto';

import { Injectable } from '@nestjs/common';

import {
  ErrorCode,
  NotFoundError,
  Page,
  type PageRequest,
  previousReportPeriod,
  REPORT_PERIODS,
  type ReportPeriod,
  type ReportTemplate,
  templateSections,
} from '@app/domain';
import type { ReportEntity } from '@app/persistence';
import type { ActorContext } from '@app/platform';

import type { GenerateReportDto, ReportResponseDto, ReportSummaryDto } from './dto/report.dto';
import { ReportContentBuilder } from './report-content.builder';
import { toReport, toReportSummary } from './reports.mapper';
import { ReportsRepository } from './reports.repository';

/** Who generated a scheduled report. */
export const SCHEDULE_ACTOR = 'system';

/** Reports: generate over the last complete period, store, list and read back. */
@Injectable()
export class ReportsService {
  constructor(
    private readonly reports: ReportsRepository,
    private readonly content: ReportContentBuilder,
  ) {}

  /** The periods a report can cover. */
  periods(): ReportPeriod[] {
    return [...REPORT_PERIODS];
  }

  /** Builds and stores a report of the last complete period (comprehensive unless a template is named). */
  async generate(actor: ActorContext, dto: GenerateReportDto, now = new Date()): Promise<ReportResponseDto> {
    const row = await this.build(dto.period, dto.template ?? 'comprehensive', now, actor.userId, null);
    await this.reports.insert(row);
    return toReport(row);
  }

  /**
   * Builds and stores the scheduled comprehensive report of the period before `now`, unless it is
   * stored already; answers whether this call stored it. The unique schedule key keeps a race
   * between two callers to one row.
   */
  async generateScheduled(period: ReportPeriod, now = new Date()): Promise<boolean> {
    const range = previousReportPeriod(period, now);
    const key = `${period}:${range.start.toISOString()}`;
    if (await this.reports.hasScheduled(key)) {
      return false;
    }
    const row = await this.build(period, 'comprehensive', now, SCHEDULE_ACTOR, key);
    try {
      await this.reports.insert(row);
    } catch (error) {
      if (await this.reports.hasScheduled(key)) {
        return false;
      }
      throw error;
    }
    return true;
  }

  /** One page of stored reports without their content, newest first. */
  async list(page: PageRequest): Promise<Page<ReportSummaryDto>> {
    const { items, total } = await this.reports.page(page);
    return new Page(items.map(toReportSummary), total, page.offset, page.limit);
  }

  /** One stored report with its content. */
  async get(id: string): Promise<ReportResponseDto> {
    const row = await this.reports.findById(id);
    if (!row) {
      throw new NotFoundError(`Report "${id}" not found`, ErrorCode.ReportNotFound);
    }
    return toReport(row);
  }

  private async build(
    period: ReportPeriod,
    template: ReportTemplate,
    now: Date,
    by: string,
    scheduleKey: string | null,
  ): Promise<ReportEntity> {
    const range = previousReportPeriod(period, now);
    const content = await this.content.build(templateSections(template), range);
    return {
      id: randomUUID(),
      period,
      template,
      periodStart: range.start,
      periodEnd: range.end,
      sections: Object.keys(content),
      content: content,
      trigger: scheduleKey === null ? 'manual' : 'scheduled',
      scheduleKey,
      generatedBy: by,
      generatedAt: new Date(),
    };
  }
}
