import { type DynamicModule, Global, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';

import type { LoggingRuntime } from '../logging';

import { LOGGING_RUNTIME } from './logging.tokens';

/**
 * Wires the logging runtime into Nest: the runtime itself for named loggers
 * (`logging.forName('tasks')`), and nestjs-pino's Logger as Nest's own logger, writing module wiring
 * and route mapping under `synthorg.framework` with the Nest context as `component`.
 *
 * nestjs-pino mounts no request middleware here (`forRoutes: []`): its pino-http layer builds two or
 * three child loggers and a second async context per request, which measured as the largest single
 * cost of a request. The access log is written by the request-context middleware instead.
 */
@Global()
@Module({})
export class LoggingModule {
  static forRoot(runtime: LoggingRuntime): DynamicModule {
    return {
      module: LoggingModule,
      imports: [
        LoggerModule.forRoot({
          pinoHttp: { logger: runtime.forName('framework') },
          forRoutes: [],
          renameContext: 'component',
        }),
      ],
      providers: [{ provide: LOGGING_RUNTIME, useValue: runtime }],
      exports: [LOGGING_RUNTIME, LoggerModule],
    };
  }
}
