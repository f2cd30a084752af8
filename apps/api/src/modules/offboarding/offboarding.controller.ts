import { Body, Controller, Get, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';

import { Permission } from '@app/domain';
import { Actor, type ActorContext, Endpoint, PathId, RequiresSubsystems } from '@app/platform';

import { FireAgentDto, OffboardingRecordDto } from './dto/offboarding.dto';
import { OffboardingService } from './offboarding.service';

/** Firing on the agent resource: the decision with its offboarding, and the offboarding record. */
@ApiTags('agents')
@ApiBearerAuth()
@Controller('agents')
@RequiresSubsystems('persistence')
export class OffboardingController {
  constructor(private readonly offboarding: OffboardingService) {}

  @Post(':agent_name/fire')
  @Endpoint({
    summary: 'Fire and offboard an agent',
    response: OffboardingRecordDto,
    status: 201,
    errors: [400, 401, 403, 404, 409],
    permission: Permission.Manage,
  })
  fire(
    @Actor() actor: ActorContext,
    @PathId('agent_name') name: string,
    @Body() body: FireAgentDto,
  ): Promise<OffboardingRecordDto> {
    return this.offboarding.fire(actor, name, body);
  }

  @Get(':agent_name/offboarding')
  @Endpoint({
    summary: "The agent's offboarding record",
    response: OffboardingRecordDto,
    errors: [400, 401, 403, 404],
    permission: Permission.Read,
  })
  get(@PathId('agent_name') name: string): Promise<OffboardingRecordDto> {
    return this.offboarding.offboarding(name);
  }
}
