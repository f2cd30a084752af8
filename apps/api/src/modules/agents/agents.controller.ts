import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';

import { type ActivityEvent, type Page, Permission } from '@app/domain';
import {
  Actor,
  type ActorContext,
  ApiEnvelope,
  ApiErrors,
  ApiPaged,
  PageQueryDto,
  PathId,
  RequirePermission,
  RequiresSubsystems,
} from '@app/platform';

import { ActivitiesService } from './activities.service';
import { AgentsService } from './agents.service';
import { ActivityEventDto } from './dto/activity.dto';
import { AgentConfigDto, AgentPerformanceSummaryDto, CareerEventDto } from './dto/agent.dto';

@ApiTags('agents')
@ApiBearerAuth()
@Controller('agents')
@RequiresSubsystems('persistence')
@RequirePermission(Permission.Read)
export class AgentsController {
  constructor(
    private readonly agents: AgentsService,
    private readonly activities: ActivitiesService,
  ) {}

  @Get()
  @ApiOperation({ summary: 'The roster, in stored order' })
  @ApiPaged(AgentConfigDto)
  @ApiErrors(400, 401, 403)
  list(@Query() page: PageQueryDto): Promise<Page<AgentConfigDto>> {
    return this.agents.list(page);
  }

  @Get(':agent_name')
  @ApiOperation({ summary: 'One agent (name is case-insensitive)' })
  @ApiEnvelope(AgentConfigDto)
  @ApiErrors(400, 401, 403, 404)
  get(@PathId('agent_name') name: string): Promise<AgentConfigDto> {
    return this.agents.get(name);
  }

  @Get(':agent_name/activity')
  @ApiOperation({ summary: "The agent's activity timeline, newest first" })
  @ApiPaged(ActivityEventDto)
  @ApiErrors(400, 401, 403, 404)
  async activity(
    @Actor() actor: ActorContext,
    @PathId('agent_name') name: string,
    @Query() page: PageQueryDto,
  ): Promise<Page<ActivityEvent>> {
    const agent = await this.agents.findOrThrow(name);
    return this.activities.feed(actor, { agentId: agent.id, lastNHours: null }, page);
  }

  @Get(':agent_name/history')
  @ApiOperation({ summary: 'Career events (hired, onboarded, promoted, demoted, fired), oldest first' })
  @ApiEnvelope(CareerEventDto, { isArray: true })
  @ApiErrors(400, 401, 403, 404)
  history(@PathId('agent_name') name: string): Promise<CareerEventDto[]> {
    return this.agents.history(name);
  }

  @Get(':agent_name/performance')
  @ApiOperation({ summary: 'Performance over 7/30/90-day windows, from recorded task runs' })
  @ApiEnvelope(AgentPerformanceSummaryDto)
  @ApiErrors(400, 401, 403, 404)
  performance(@PathId('agent_name') name: string): Promise<AgentPerformanceSummaryDto> {
    return this.agents.performance(name);
  }
}
