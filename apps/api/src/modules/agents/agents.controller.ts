import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';

import { type ActivityEvent, type Page, Permission } from '@app/domain';
import { Actor, type ActorContext, Endpoint, PageQueryDto, PathId, RequiresSubsystems } from '@app/platform';

import { ActivitiesService } from './activities.service';
import { AgentsService } from './agents.service';
import { ActivityEventDto } from './dto/activity.dto';
import { AgentConfigDto, AgentPerformanceSummaryDto, CareerEventDto } from './dto/agent.dto';

@ApiTags('agents')
@ApiBearerAuth()
@Controller('agents')
@RequiresSubsystems('persistence')
export class AgentsController {
  constructor(
    private readonly agents: AgentsService,
    private readonly activities: ActivitiesService,
  ) {}

  @Get()
  @Endpoint({
    summary: 'The roster, in stored order',
    paged: AgentConfigDto,
    errors: [400, 401, 403],
    permission: Permission.Read,
  })
  list(@Query() page: PageQueryDto): Promise<Page<AgentConfigDto>> {
    return this.agents.list(page);
  }

  @Get(':agent_name')
  @Endpoint({
    summary: 'One agent (name is case-insensitive; ETag header: its version, for If-Match)',
    response: AgentConfigDto,
    errors: [400, 401, 403, 404],
    permission: Permission.Read,
  })
  async get(@PathId('agent_name') name: string, @Res({ passthrough: true }) res: Response): Promise<AgentConfigDto> {
    const { agent, etag } = await this.agents.get(name);
    res.setHeader('ETag', etag);
    return agent;
  }

  @Get(':agent_name/activity')
  @Endpoint({
    summary: "The agent's activity timeline, newest first",
    paged: ActivityEventDto,
    errors: [400, 401, 403, 404],
    permission: Permission.Read,
  })
  async activity(
    @Actor() actor: ActorContext,
    @PathId('agent_name') name: string,
    @Query() page: PageQueryDto,
  ): Promise<Page<ActivityEvent>> {
    const agent = await this.agents.findOrThrow(name);
    return this.activities.feed(actor, { agentId: agent.id, lastNHours: null }, page);
  }

  @Get(':agent_name/history')
  @Endpoint({
    summary: 'Career events (hired, onboarded, status_changed, promoted, demoted, fired, offboarded), oldest first',
    response: CareerEventDto,
    isArray: true,
    errors: [400, 401, 403, 404],
    permission: Permission.Read,
  })
  history(@PathId('agent_name') name: string): Promise<CareerEventDto[]> {
    return this.agents.history(name);
  }

  @Get(':agent_name/performance')
  @Endpoint({
    summary: 'Performance over 7/30/90-day windows, from recorded task runs',
    response: AgentPerformanceSummaryDto,
    errors: [400, 401, 403, 404],
    permission: Permission.Read,
  })
  performance(@PathId('agent_name') name: string): Promise<AgentPerformanceSummaryDto> {
    return this.agents.performance(name);
  }
}
