import { Body, Controller, Get, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';

import { Permission } from '@app/domain';
import { Actor, type ActorContext, ApiEnvelope, ApiErrors, RequirePermission, RequiresSubsystems } from '@app/platform';

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
  @RequirePermission(Permission.Read)
  @ApiOperation({ summary: 'Discovery address policy and its host:port allowlist' })
  @ApiEnvelope(DiscoveryPolicyDto)
  @ApiErrors(401, 403)
  get(): Promise<DiscoveryPolicyDto> {
    return this.policy.view();
  }

  @Post('entries')
  @RequirePermission(Permission.Administer)
  @ApiOperation({ summary: 'Trust a host:port for discovery and probing (bypasses the address checks)' })
  @ApiEnvelope(DiscoveryPolicyDto, { status: 201 })
  @ApiErrors(400, 401, 403)
  add(@Actor() actor: ActorContext, @Body() dto: HostPortDto): Promise<DiscoveryPolicyDto> {
    return this.policy.add(actor, dto.host_port);
  }

  @Post('remove-entry')
  @RequirePermission(Permission.Administer)
  @ApiOperation({ summary: 'Stop trusting a host:port' })
  @ApiEnvelope(DiscoveryPolicyDto, { status: 201 })
  @ApiErrors(400, 401, 403)
  remove(@Actor() actor: ActorContext, @Body() dto: HostPortDto): Promise<DiscoveryPolicyDto> {
    return this.policy.remove(actor, dto.host_port);
  }
}
