import { randomUUID } from 'node:crypto';

import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import type { Logger } from 'pino';

import { Subsystem } from '@app/domain';

import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import type { LoggingRuntime } from '../logging';
import { LOGGING_RUNTIME } from '../logging-nest/logging.tokens';
import { ServiceMetrics } from '../observability/service-metrics';
import { DatabaseService } from '../persistence/database.service';
import { SubsystemRegistry } from '../subsystems/subsystem.registry';

import { DomainEventBus } from './domain-event-bus';
import { PostgresEventBridge } from './postgres-event-bridge';
import { ReplicaLink } from './replica-link';

const DRAIN_TIMEOUT_MS = 2000;

/**
 * Wires the bus to the other replicas on Postgres (SQLite is single-process: in-process only) and
 * reports it as the `message_bus` subsystem and on the ReplicaLink. A bridge that cannot start
 * leaves local delivery intact.
 */
@Injectable()
export class EventBusLifecycle
  implements OnModuleInit, OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown
{
  private bridge: PostgresEventBridge | null = null;
  private readonly log: Logger;

  constructor(
    private readonly bus: DomainEventBus,
    private readonly link: ReplicaLink,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly database: DatabaseService,
    private readonly registry: SubsystemRegistry,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
    private readonly metrics: ServiceMetrics,
  ) {
    this.log = logging.forName('communication');
  }

  /** The relay is attached early so events published during other modules' startup still travel. */
  onModuleInit(): void {
    const { backend, databaseUrl } = this.config.persistence;
    if (backend !== 'postgres' || !databaseUrl) {
      this.registry.markWired(Subsystem.MessageBus, 'in-process');
      return;
    }
    this.registry.markUnwired(Subsystem.MessageBus, 'event listener connecting');
    this.link.set(false);
    this.bridge = new PostgresEventBridge({
      databaseUrl,
      // The DataSource getter throws 503 while persistence is down; the bus logs the failed forward.
      execute: (sql, params) => this.database.dataSource.query(sql, params),
      originId: randomUUID(),
      log: this.log,
      deliver: (event) => {
        // Publisher's clock to this one's: the replicas' clocks are assumed in sync (NTP).
        const lagMs = Date.now() - Date.parse(event.timestamp);
        if (Number.isFinite(lagMs)) {
          this.metrics.eventBusLag.observe(Math.max(0, lagMs) / 1000);
        }
        this.bus.deliverRemote(event);
      },
      onStatus: (status) => {
        this.link.set(status.connected);
        if (status.connected) {
          this.registry.markWired(Subsystem.MessageBus, status.detail);
        } else {
          this.registry.markUnwired(Subsystem.MessageBus, status.detail);
        }
      },
    });
    this.bus.setRelay(this.bridge);
  }

  /** After every module's init, so migrations (the domain_events table) have run. */
  async onApplicationBootstrap(): Promise<void> {
    await this.bridge?.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.bus.drain(DRAIN_TIMEOUT_MS);
  }

  async onApplicationShutdown(): Promise<void> {
    this.bus.setRelay(null);
    const bridge = this.bridge;
    this.bridge = null;
    await bridge?.close();
  }
}
