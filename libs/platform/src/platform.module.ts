import { type DynamicModule, Global, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';

import type { AppConfig } from './config/app-config';
import { APP_CONFIG } from './config/config.tokens';
import { EnvelopeInterceptor } from './http/envelope.interceptor';
import { AppExceptionFilter } from './http/exception.filter';
import type { LoggingRuntime } from './logging';
import { LoggingModule } from './logging-nest/logging.module';
import { LOGGING_RUNTIME } from './logging-nest/logging.tokens';
import { MemoryBackendBootstrap } from './memory/memory-backend';
import { DatabaseService } from './persistence/database.service';
import { ShutdownState } from './shutdown/shutdown.state';
import { SubsystemGuard } from './subsystems/requires-subsystems';
import { SubsystemRegistry } from './subsystems/subsystem.registry';

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
      imports: [LoggingModule.forRoot(logging)],
      providers: [
        { provide: APP_CONFIG, useValue: config },
        DatabaseService,
        MemoryBackendBootstrap,
        ShutdownState,
        SubsystemRegistry,
        { provide: APP_GUARD, useClass: SubsystemGuard },
        { provide: APP_INTERCEPTOR, useClass: EnvelopeInterceptor },
        {
          provide: APP_FILTER,
          inject: [LOGGING_RUNTIME],
          useFactory: (runtime: LoggingRuntime) => new AppExceptionFilter(runtime.forName('api.errors')),
        },
      ],
      exports: [APP_CONFIG, DatabaseService, ShutdownState, SubsystemRegistry],
    };
  }
}
