import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { SkipThrottle } from '@nestjs/throttler';

import { ApiEnvelope, ApiErrors, Public } from '@app/platform';

import { HealthStatusDto, ProbeStatusDto } from './health.dto';
import { HealthService } from './health.service';

@ApiTags('health')
@Controller('health')
@Public()
@SkipThrottle({ default: true, auth: true })
export class HealthController {
  constructor(private readonly health: HealthService) {}

  @Get()
  @ApiOperation({ summary: 'Service health: version, uptime, persistence and wired subsystems' })
  @ApiEnvelope(HealthStatusDto)
  @ApiErrors(500)
  getHealth(): Promise<HealthStatusDto> {
    return this.health.status();
  }

  @Get('live')
  @ApiOperation({ summary: 'Liveness probe: the process answers (no dependencies checked)' })
  @ApiEnvelope(ProbeStatusDto)
  getLive(): ProbeStatusDto {
    return this.health.live();
  }

  @Get('ready')
  @ApiOperation({ summary: 'Readiness probe: database reachable and migrated, not shutting down' })
  @ApiEnvelope(ProbeStatusDto)
  @ApiErrors(503)
  getReady(): Promise<ProbeStatusDto> {
    return this.health.ready();
  }
}
