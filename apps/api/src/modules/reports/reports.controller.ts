import { Body, Controller, Get, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';

import { type Page, Permission, type ReportPeriod } from '@app/domain';
import { Actor, type ActorContext, Endpoint, PageQueryDto, PathId, RequiresSubsystems } from '@app/platform';

import { GenerateReportDto, ReportResponseDto, ReportSummaryDto } from './dto/report.dto';
import { ReportsService } from './reports.service';

/** Reports: every role reads; the write roles generate. */
@ApiTags('reports')
@ApiBearerAuth()
@Controller('reports')
@RequiresSubsystems('persistence')
export class ReportsController {
  constructor(private readonly reports: ReportsService) {}

  @Post('generate')
  @Endpoint({
    summary: 'Generate and store a report of the last complete period',
    response: ReportResponseDto,
    status: 201,
    errors: [400, 401, 403],
    permission: Permission.Write,
  })
  generate(@Actor() actor: ActorContext, @Body() dto: GenerateReportDto): Promise<ReportResponseDto> {
    return this.reports.generate(actor, dto);
  }

  @Get('periods')
  @Endpoint({
    summary: 'The periods a report can cover',
    response: String,
    isArray: true,
    errors: [401, 403],
    permission: Permission.Read,
  })
  periods(): ReportPeriod[] {
    return this.reports.periods();
  }

  @Get()
  @Endpoint({
    summary: 'Stored reports without their content, newest first',
    paged: ReportSummaryDto,
    errors: [400, 401, 403],
    permission: Permission.Read,
  })
  list(@Query() query: PageQueryDto): Promise<Page<ReportSummaryDto>> {
    return this.reports.list({ offset: query.offset, limit: query.limit });
  }

  @Get(':report_id')
  @Endpoint({
    summary: 'One stored report with its content',
    response: ReportResponseDto,
    errors: [400, 401, 403, 404],
    permission: Permission.Read,
  })
  get(@PathId('report_id') id: string): Promise<ReportResponseDto> {
    return this.reports.get(id);
  }
}
