import { Body, Controller, Get, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';

import { Permission } from '@app/domain';
import { Actor, type ActorContext, Endpoint, RequiresSubsystems } from '@app/platform';

import { DiscoveryPolicyService } from './discovery/discovery-policy.service';
import { DiscoveryPolicyDto, HostPortDto } from './dto/preset.dto';

/** The allowlist that lets discovery reach private addresses: security policy, so the CEO's to change. */
@ApiTags('providers')
@ApiBearerAuth()
@Controller('providers/discovery-policy')
@RequiresSubsystems('persistence')
export class DiscoveryPolicyController {
  constructor(private readonly policy: DiscoveryPolicyService) {}

  @Get()
  @Endpoint({
    summary: 'Discovery address policy and its host:port allowlist',
    response: DiscoveryPolicyDto,
    errors: [401, 403],
    permission: Permission.Read,
  })
  get(): Promise<DiscoveryPolicyDto> {
    return this.policy.view();
  }

  @Post('entries')
  @Endpoint({
    summary: 'Trust a host:port for discovery and probing (bypasses the address checks)',
    response: DiscoveryPolicyDto,
    status: 201,
    errors: [400, 401, 403],
    permission: Permission.Administer,
  })
  add(@Actor() actor: ActorContext, @Body() dto: HostPortDto): Promise<DiscoveryPolicyDto> {
    return this.policy.add(actor, dto.host_port);
  }

  @Post('remove-entry')
  @Endpoint({
    summary: 'Stop trusting a host:port',
    response: DiscoveryPolicyDto,
    status: 201,
    errors: [400, 401, 403],
    permission: Permission.Administer,
  })
  remove(@Actor() actor: ActorContext, @Body() dto: HostPortDto): Promise<DiscoveryPolicyDto> {
    return this.policy.remove(actor, dto.host_port);
  }
}
