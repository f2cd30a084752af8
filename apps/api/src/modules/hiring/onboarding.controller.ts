import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';

import { Permission } from '@app/domain';
import { Actor, type ActorContext, Endpoint, PathId, RequiresSubsystems } from '@app/platform';

import { OnboardingDto } from './dto/hiring.dto';
import { OnboardingService } from './onboarding.service';

/** A new agent's onboarding checklist, and the retry of its failed steps. */
@ApiTags('agents')
@ApiBearerAuth()
@Controller('agents')
@RequiresSubsystems('persistence')
export class OnboardingController {
  constructor(private readonly onboarding: OnboardingService) {}

  @Get(':agent_name/onboarding')
  @Endpoint({
    summary: "The agent's onboarding checklist",
    response: OnboardingDto,
    errors: [400, 401, 403, 404],
    permission: Permission.Read,
  })
  get(@PathId('agent_name') name: string): Promise<OnboardingDto> {
    return this.onboarding.get(name);
  }

  @Post(':agent_name/onboarding/retry')
  @HttpCode(200)
  @Endpoint({
    summary: 'Run the failed onboarding steps again (409, 4083 when none failed)',
    response: OnboardingDto,
    errors: [401, 403, 404, 409],
    permission: Permission.Manage,
  })
  retry(@Actor() actor: ActorContext, @PathId('agent_name') name: string): Promise<OnboardingDto> {
    return this.onboarding.retry(actor, name);
  }
}
