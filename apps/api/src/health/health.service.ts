import { Injectable } from '@nestjs/common';

import { ServiceUnavailableError, Subsystem } from '@app/domain';
import { DatabaseService, ShutdownState, SubsystemRegistry } from '@app/platform';

import { SERVICE_VERSION } from '../version';

import type { HealthStatusDto, ProbeStatusDto } from './health.dto';

@Injectable()
export class HealthService {
  private readonly startedAt = Date.now();

  constructor(
    private readonly database: DatabaseService,
    private readonly registry: SubsystemRegistry,
    private readonly shutdown: ShutdownState,
  ) {}

  async status(): Promise<HealthStatusDto> {
    const persistence = await this.database.isReady();
    const bus = this.registry.get(Subsystem.MessageBus);
    const messageBus = bus ? bus.wired : null;
    const checks = [persistence, messageBus].filter((c): c is boolean => c !== null);
    const up = checks.filter(Boolean).length;
    return {
      status: up === checks.length ? 'ok' : up === 0 ? 'down' : 'degraded',
      version: SERVICE_VERSION,
      uptime_seconds: Math.round((Date.now() - this.startedAt) / 1000),
      persistence,
      message_bus: messageBus,
      persistence_detail: { backend: this.database.backend, state: this.database.state },
      subsystems: this.registry.snapshot().map((s) => ({ name: s.name, wired: s.wired, detail: s.detail })),
    };
  }

  live(): ProbeStatusDto {
    return { status: 'alive' };
  }

  /** Database reachable and migrated, and not shutting down; never gated on optional subsystems. */
  async ready(): Promise<ProbeStatusDto> {
    if (this.shutdown.isDraining) {
      throw new ServiceUnavailableError('Shutting down');
    }
    if (!(await this.database.isReady())) {
      throw new ServiceUnavailableError(`Persistence not ready (${this.database.state})`, 5);
    }
    return { status: 'ready' };
  }
}
