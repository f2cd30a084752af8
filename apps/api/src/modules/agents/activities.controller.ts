import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';

import { type ActivityEvent, type Page, Permission } from '@app/domain';
import { Actor, type ActorContext, Endpoint, RequiresSubsystems } from '@app/platform';

import { ActivitiesService } from './activities.service';
import { ActivityEventDto, ActivityQueryDto } from './dto/activity.dto';

@ApiTags('activities')
@ApiBearerAuth()
@Controller('activities')
@RequiresSubsystems('persistence')
export class ActivitiesController {
  constructor(private readonly activities: ActivitiesService) {}

  @Get()
  @Endpoint({
    summary: 'Organisation activity feed, newest first',
    description:
      '`degraded_sources` names the data sources that failed during the read while the others still answered. ' +
      'Cost details are redacted for read-only roles.',
    paged: ActivityEventDto,
    errors: [400, 401, 403],
    permission: Permission.Read,
  })
  list(@Actor() actor: ActorContext, @Query() query: ActivityQueryDto): Promise<Page<ActivityEvent>> {
    return this.activities.feed(
      actor,
      { type: query.type, agentId: query.agent_id, lastNHours: query.last_n_hours ?? 24 },
      { offset: query.offset, limit: query.limit },
    );
  }
}
