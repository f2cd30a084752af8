import { createServer, type Server } from 'node:http';

import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';

import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import type { LoggingRuntime } from '../logging';
import { LOGGING_RUNTIME } from '../logging-nest/logging.tokens';
import { DatabaseService } from '../persistence/database.service';

import { ServiceMetrics } from './service-metrics';

/** The pg pool TypeORM's Postgres driver keeps (its counters only). */
interface PoolCounters {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

/**
 * Serves `GET /metrics` on `SYNTHORG_METRICS_PORT`, a listener of its own beside the API's (never
 * routed by the public Ingress); off when no port is configured. Also reads the service pool's
 * connections at each scrape.
 */
@Injectable()
export class MetricsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private server: Server | null = null;
  private readonly log: Logger;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
    private readonly metrics: ServiceMetrics,
    private readonly database: DatabaseService,
  ) {
    this.log = logging.forName('api');
  }

  async onApplicationBootstrap(): Promise<void> {
    const { port, host } = this.config.metrics;
    if (port === null) {
      return;
    }
    this.metrics.onScrape('db.pool', () => this.readPool());
    const server = createServer((req, res) => {
      if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
        res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found: GET /metrics\n');
        return;
      }
      this.metrics.render().then(
        (text) => res.writeHead(200, { 'Content-Type': this.metrics.contentType }).end(text),
        (error: unknown) => {
          this.log.error({ err: error }, 'api.metrics.failed');
          res.writeHead(500, { 'Content-Type': 'text/plain' }).end('metrics unavailable\n');
        },
      );
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    const address = server.address();
    this.log.info({ host, port: typeof address === 'object' && address ? address.port : port }, 'api.metrics.started');
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }

  private readPool(): void {
    if (this.database.backend !== 'postgres' || this.database.state !== 'ready') {
      return;
    }
    const pool = (this.database.dataSource.driver as unknown as { master?: PoolCounters }).master;
    if (!pool) {
      return;
    }
    this.metrics.dbPool.set({ pool: 'service', state: 'in_use' }, pool.totalCount - pool.idleCount);
    this.metrics.dbPool.set({ pool: 'service', state: 'idle' }, pool.idleCount);
    this.metrics.dbPool.set({ pool: 'service', state: 'waiting' }, pool.waitingCount);
  }
}
