import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';

import { type Page, Permission } from '@app/domain';
import { Endpoint, PathId, RequiresSubsystems } from '@app/platform';

import { BudgetService } from './budget.service';
import { BudgetConfigDto } from './dto/budget-config.dto';
import {
  AgentSpendingDto,
  BudgetRecordsQueryDto,
  BudgetRecordsSummariesDto,
  CostRecordDto,
} from './dto/cost-record.dto';
import { SpendingSummaryDto } from './dto/spending-summary.dto';

/** The budget routes: one-line pass-throughs to the service. Everyone may read. */
@ApiTags('budget')
@ApiBearerAuth()
@Controller('budget')
@RequiresSubsystems('persistence')
export class BudgetController {
  constructor(private readonly budget: BudgetService) {}

  @Get()
  @Endpoint({
    summary: 'Spending, limits and projections of the billing period',
    response: SpendingSummaryDto,
    errors: [401, 403],
    permission: Permission.Read,
  })
  summary(): Promise<SpendingSummaryDto> {
    return this.budget.summary();
  }

  @Get('config')
  @Endpoint({
    summary: 'The budget configuration',
    response: BudgetConfigDto,
    errors: [401, 403],
    permission: Permission.Read,
  })
  config(): BudgetConfigDto {
    return this.budget.config();
  }

  @Get('records')
  @Endpoint({
    summary: 'Cost records, newest first, with daily_summary and period_summary over all matching records',
    paged: CostRecordDto,
    pageExtras: BudgetRecordsSummariesDto,
    errors: [400, 401, 403],
    permission: Permission.Read,
  })
  records(@Query() query: BudgetRecordsQueryDto): Promise<Page<CostRecordDto>> {
    return this.budget.records(
      {
        ...(query.agent_id !== undefined ? { agentId: query.agent_id } : {}),
        ...(query.task_id !== undefined ? { taskId: query.task_id } : {}),
      },
      { offset: query.offset, limit: query.limit },
    );
  }

  @Get('agents/:agent_id')
  @Endpoint({
    summary: "An agent's total spend",
    response: AgentSpendingDto,
    errors: [400, 401, 403],
    permission: Permission.Read,
  })
  agent(@PathId('agent_id') agentId: string): Promise<AgentSpendingDto> {
    return this.budget.agent(agentId);
  }
}
