import { type DynamicModule, Global, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';

import type { AppConfig } from './config/app-config';
import { APP_CONFIG } from './config/config.tokens';
import { AuthGuard } from './auth/auth.guard';
import { SecretCipher } from './crypto/secret-cipher';
import { EventsModule } from './events/events.module';
import { EnvelopeInterceptor } from './http/envelope.interceptor';
import { AppExceptionFilter } from './http/exception.filter';
import { IdempotencyKeyRepository } from './idempotency/idempotency-key.repository';
import { IdempotencyService } from './idempotency/idempotency.service';
import type { LoggingRuntime } from './logging';
import { ReinitialisationHooks } from './lifecycle/reinitialisation-hooks';
import { StartupResumeHooks } from './lifecycle/startup-resume-hooks';
import { WriteBehindBuffers } from './lifecycle/write-behind-buffers';
import { DistributedLock } from './locks/distributed-lock';
import { ReplicaIdentity } from './process/process-owner';
import { LoggingModule } from './logging-nest/logging.module';
import { LOGGING_RUNTIME } from './logging-nest/logging.tokens';
import { MetricsServer } from './observability/metrics-server';
import { ServiceMetrics } from './observability/service-metrics';
import { DatabaseService } from './persistence/database.service';
import { UnitOfWork } from './persistence/unit-of-work';
import { SettingsStore } from './settings/settings-store';
import { ShutdownState } from './shutdown/shutdown.state';
import { SubsystemGuard } from './subsystems/requires-subsystems';
import { SubsystemRegistry } from './subsystems/subsystem.registry';
import { AppThrottlerGuard } from './throttling/app-throttler.guard';
import { ThrottlingModule } from './throttling/throttling.module';

/**
 * The cross-cutting platform every feature module relies on: typed config, logging, persistence,
 * subsystem wiring (503 for unwired features), the envelope and the one exception filter.
 */
@Global()
@Module({})
export class PlatformModule {
  static forRoot(config: AppConfig, logging: LoggingRuntime): DynamicModule {
    return {
      module: PlatformModule,
      imports: [LoggingModule.forRoot(logging), ThrottlingModule.forRoot(), EventsModule],
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: SecretCipher, useValue: new SecretCipher(config.secrets) },
        { provide: ServiceMetrics, useValue: new ServiceMetrics(config.metrics.port !== null) },
        DatabaseService,
        DistributedLock,
        ReplicaIdentity,
        IdempotencyKeyRepository,
        IdempotencyService,
        MetricsServer,
        ReinitialisationHooks,
        SettingsStore,
        ShutdownState,
        StartupResumeHooks,
        SubsystemRegistry,
        UnitOfWork,
        WriteBehindBuffers,
        // Guards run in this order: unwired feature (503) → authentication and role (401/403) → rate limit (429).
        { provide: APP_GUARD, useClass: SubsystemGuard },
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: APP_GUARD, useClass: AppThrottlerGuard },
        { provide: APP_INTERCEPTOR, useClass: EnvelopeInterceptor },
        {
          provide: APP_FILTER,
          inject: [LOGGING_RUNTIME],
          useFactory: (runtime: LoggingRuntime) => new AppExceptionFilter(runtime.forName('api.errors')),
        },
      ],
      exports: [
        APP_CONFIG,
        DatabaseService,
        DistributedLock,
        ReplicaIdentity,
        EventsModule,
        ReinitialisationHooks,
        SecretCipher,
        ServiceMetrics,
        SettingsStore,
        ShutdownState,
        StartupResumeHooks,
        SubsystemRegistry,
        UnitOfWork,
        WriteBehindBuffers,
      ],
    };
  }
}
