import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';

import { Permission } from '@app/domain';
import { Actor, type ActorContext, Endpoint, PathId, RequiresSubsystems } from '@app/platform';

import { AgentConfigDto } from '../agents';
import { ApprovalResponseDto } from '../approvals';
import { FireAgentDto, OffboardingRecordDto } from './dto/offboarding.dto';
import { FiringApprovals } from './firing-approvals';
import { OffboardingService } from './offboarding.service';

/** Firing on the agent resource: the decision with its offboarding, and the offboarding record. */
@ApiTags('agents')
@ApiBearerAuth()
@Controller('agents')
@RequiresSubsystems('persistence')
export class OffboardingController {
  constructor(
    private readonly offboarding: OffboardingService,
    private readonly firingApprovals: FiringApprovals,
  ) {}

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

  @Post(':agent_name/fire-request')
  @Endpoint({
    summary: 'Ask a second person to fire an agent: files an org:fire approval item',
    description: 'Approval by another person fires and offboards the agent. 409: fired (4099), a request waits (4075).',
    response: ApprovalResponseDto,
    status: 201,
    errors: [400, 401, 403, 404, 409],
    permission: Permission.Manage,
  })
  fireRequest(
    @Actor() actor: ActorContext,
    @PathId('agent_name') name: string,
    @Body() body: FireAgentDto,
  ): Promise<ApprovalResponseDto> {
    return this.firingApprovals.request(actor, name, body);
  }

  @Post(':agent_name/release-name')
  @HttpCode(200)
  @Endpoint({
    summary: "Free a terminated agent's name for a new hire (CEO)",
    description: 'The agent keeps its id and history (reach it by id). 409: not terminated (4073), released (4074).',
    response: AgentConfigDto,
    errors: [400, 401, 403, 404, 409],
    permission: Permission.Administer,
  })
  releaseName(@Actor() actor: ActorContext, @PathId('agent_name') name: string): Promise<AgentConfigDto> {
    return this.firingApprovals.releaseName(actor, name);
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
