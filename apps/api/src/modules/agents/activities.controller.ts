import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';

import { type ActivityEvent, type Page, Permission } from '@app/domain';
import { Actor, type ActorContext, ApiErrors, ApiPaged, RequirePermission, RequiresSubsystems } from '@app/platform';

import { ActivitiesService } from './activities.service';
import { ActivityEventDto, ActivityQueryDto } from './dto/activity.dto';

@ApiTags('activities')
@ApiBearerAuth()
@Controller('activities')
@RequiresSubsystems('persistence')
@RequirePermission(Permission.Read)
export class ActivitiesController {
  constructor(private readonly activities: ActivitiesService) {}

  @Get()
  @ApiOperation({
    summary: 'Organisation activity feed, newest first',
    description:
      '`degraded_sources` names the data sources that failed during the read while the others still answered. ' +
      'Cost details are redacted for read-only roles.',
  })
  @ApiPaged(ActivityEventDto)
  @ApiErrors(400, 401, 403)
  list(@Actor() actor: ActorContext, @Query() query: ActivityQueryDto): Promise<Page<ActivityEvent>> {
    return this.activities.feed(
      actor,
      { type: query.type, agentId: query.agent_id, lastNHours: query.last_n_hours ?? 24 },
      { offset: query.offset, limit: query.limit },
    );
  }
}
