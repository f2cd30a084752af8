import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';

import { Permission } from '@app/domain';
import { Actor, type ActorContext, Endpoint, PathId, RequiresSubsystems } from '@app/platform';

import { LevelEvaluationDto } from './dto/level-evaluation.dto';
import { LevelReview } from './level-review.service';

/** Promotion and demotion on demand (the schedule evaluates the roster on its own). */
@ApiTags('agents')
@ApiBearerAuth()
@Controller('agents')
@RequiresSubsystems('persistence')
export class PromotionsController {
  constructor(private readonly review: LevelReview) {}

  @Post(':agent_name/evaluate-level')
  @HttpCode(200)
  @Endpoint({
    summary: 'Evaluate promotion/demotion now from the performance summary',
    description:
      'Applies an automatic move, or files an org:promote item (approval_id). 409: cooldown (4070), inactive (4071), off (4072).',
    response: LevelEvaluationDto,
    errors: [400, 401, 403, 404, 409],
    permission: Permission.Manage,
  })
  evaluate(@Actor() actor: ActorContext, @PathId('agent_name') name: string): Promise<LevelEvaluationDto> {
    return this.review.evaluateOnDemand(actor, name);
  }
}
