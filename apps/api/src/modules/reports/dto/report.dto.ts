import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsIn, ValidateIf } from 'class-validator';

import { ErrorCode, REPORT_PERIODS, REPORT_TEMPLATES, type ReportPeriod, type ReportTemplate } from '@app/domain';
import { codedRule } from '@app/platform';

import {
  PerformanceSectionDto,
  RiskTrendsSectionDto,
  SpendingSectionDto,
  TaskCompletionSectionDto,
} from './report-sections.dto';

/** The body of `POST /reports/generate`. */
@ApiSchema({ name: 'GenerateReportRequest' })
export class GenerateReportDto {
  @ApiProperty({
    enum: REPORT_PERIODS,
    description:
      'The last complete period: daily = the previous UTC day, weekly = previous Monday to Monday, monthly = previous 1st to 1st',
  })
  @IsIn(REPORT_PERIODS, codedRule(ErrorCode.ReportPeriodInvalid))
  period!: ReportPeriod;

  @ApiPropertyOptional({ enum: REPORT_TEMPLATES, default: 'comprehensive' })
  // Absent means comprehensive; null is refused like any other unknown template.
  @ValidateIf((_dto: object, value: unknown) => value !== undefined)
  @IsIn(REPORT_TEMPLATES, codedRule(ErrorCode.ReportTemplateInvalid))
  template?: ReportTemplate;
}

/** A stored report without its content (list rows). */
@ApiSchema({ name: 'ReportSummary' })
export class ReportSummaryDto {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ enum: REPORT_PERIODS })
  period!: ReportPeriod;

  @ApiProperty({ enum: REPORT_TEMPLATES })
  template!: ReportTemplate;

  @ApiProperty({ format: 'date-time', description: 'Start of the period (included)' })
  start!: string;

  @ApiProperty({ format: 'date-time', description: 'End of the period (excluded)' })
  end!: string;

  @ApiProperty({ enum: ['manual', 'scheduled'] })
  trigger!: 'manual' | 'scheduled';

  @ApiProperty({ description: 'User id, or `system` for a scheduled report' })
  generated_by!: string;

  @ApiProperty()
  has_spending!: boolean;

  @ApiProperty()
  has_performance!: boolean;

  @ApiProperty()
  has_task_completion!: boolean;

  @ApiProperty()
  has_risk_trends!: boolean;

  @ApiProperty({ format: 'date-time' })
  generated_at!: string;
}

/** The sections a report holds; those its template does not build are absent. */
@ApiSchema({ name: 'ReportContent' })
export class ReportContentDto {
  @ApiPropertyOptional({ type: SpendingSectionDto })
  spending?: SpendingSectionDto;

  @ApiPropertyOptional({ type: PerformanceSectionDto })
  performance?: PerformanceSectionDto;

  @ApiPropertyOptional({ type: TaskCompletionSectionDto })
  task_completion?: TaskCompletionSectionDto;

  @ApiPropertyOptional({ type: RiskTrendsSectionDto })
  risk_trends?: RiskTrendsSectionDto;
}

/** A stored report with its content. */
@ApiSchema({ name: 'Report' })
export class ReportResponseDto extends ReportSummaryDto {
  @ApiProperty({ type: ReportContentDto })
  content!: ReportContentDto;
}
