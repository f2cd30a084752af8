import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { SkipThrottle } from '@nestjs/throttler';

import { Endpoint } from '@app/platform';

import { HealthStatusDto, ProbeStatusDto } from './health.dto';
import { HealthService } from './health.service';

@ApiTags('health')
@Controller('health')
@SkipThrottle({ default: true, auth: true })
export class HealthController {
  constructor(private readonly health: HealthService) {}

  @Get()
  @Endpoint({
    summary: 'Service health: version, uptime, persistence and wired subsystems',
    response: HealthStatusDto,
    errors: [500],
    public: true,
  })
  getHealth(): Promise<HealthStatusDto> {
    return this.health.status();
  }

  @Get('live')
  @Endpoint({
    summary: 'Liveness probe: the process answers (no dependencies checked)',
    response: ProbeStatusDto,
    errors: [],
    public: true,
  })
  getLive(): ProbeStatusDto {
    return this.health.live();
  }

  @Get('ready')
  @Endpoint({
    summary: 'Readiness probe: database reachable and migrated, not shutting down',
    response: ProbeStatusDto,
    errors: [503],
    public: true,
  })
  getReady(): Promise<ProbeStatusDto> {
    return this.health.ready();
  }
}
