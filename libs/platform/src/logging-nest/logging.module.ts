import { type DynamicModule, Global, Module } from '@nestjs/common';
import type { Request, Response } from 'express';
import { LoggerModule } from 'nestjs-pino';

import type { LoggingRuntime } from '../logging';

import { LOGGING_RUNTIME } from './logging.tokens';

type RequestWithId = Request & { requestId?: string };

/**
 * Wires the logging runtime into Nest: nestjs-pino for the framework logger and the access log
 * (`synthorg.api.access`, one `api.request.completed` line per request), and the runtime itself for
 * named loggers (`logging.forName('tasks')`).
 */
@Global()
@Module({})
export class LoggingModule {
  static forRoot(runtime: LoggingRuntime): DynamicModule {
    const access = runtime.forName('api.access');
    return {
      module: LoggingModule,
      imports: [
        LoggerModule.forRoot({
          pinoHttp: {
            logger: access,
            genReqId: (req) => (req as RequestWithId).requestId ?? '',
            // Only what an access log needs: serialising whole requests (headers) costs per request.
            serializers: {
              req: (req: { method?: string; url?: string }) => ({ method: req.method, url: req.url }),
              res: (res: { statusCode?: number }) => ({ status_code: res.statusCode }),
            },
            customAttributeKeys: { responseTime: 'duration_ms', reqId: 'request_id' },
            customSuccessMessage: () => 'api.request.completed',
            customErrorMessage: () => 'api.request.completed',
            customLogLevel: (_req: Request, res: Response, error?: Error) =>
              error || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info',
            quietReqLogger: true,
            autoLogging: { ignore: (req: Request) => (req.url ?? '').startsWith('/api/v1/health/') },
          },
          renameContext: 'component',
        }),
      ],
      providers: [{ provide: LOGGING_RUNTIME, useValue: runtime }],
      exports: [LOGGING_RUNTIME, LoggerModule],
    };
  }
}
