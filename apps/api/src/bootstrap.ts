import type { DynamicModule, INestApplication, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import pino from 'pino';

import {
  type AppConfig,
  buildAppConfig,
  createLogging,
  createValidationPipe,
  type LoggingRuntime,
  readConfigSources,
  requestIdMiddleware,
  resolveBackendHint,
  runBinaryPreflight,
  validateSinkSettings,
} from '@app/platform';

import { AppModule } from './app.module';
import { buildOpenApiDocument, serveOpenApi } from './openapi/openapi';

export const API_PREFIX = 'api/v1';

export interface BootstrapOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Skip the binary preflight (in-process tests that exercise it separately). */
  skipPreflight?: boolean;
  /** Where the console sink writes (tests capture it); stderr by default. */
  consoleDestination?: NodeJS.WritableStream;
  /** Extra modules mounted beside the feature modules (test fixtures). */
  extraImports?: Array<Type<unknown> | DynamicModule>;
}

export interface CreatedApp {
  app: NestExpressApplication;
  config: AppConfig;
  logging: LoggingRuntime;
}

/**
 * Startup, in the order the interface fixes:
 * 1. binary preflight, before anything else is wired (backend resolved from env/YAML only);
 * 2. typed config, including the signing secret and the dev-auth-bypass flag (missing secret aborts);
 * 3. persistence connects and migrates (DatabaseService, during module init);
 * 4. services needing persistence are wired after it, failure-tolerant (503 while unwired);
 * 5. the memory backend only when an embedding model resolves (else one ERROR, no fallback).
 */
export async function createApp(options: BootstrapOptions = {}): Promise<CreatedApp> {
  const env = options.env ?? process.env;
  const sources = readConfigSources(env, options.cwd);
  if (!options.skipPreflight) {
    await runBinaryPreflight({ backend: resolveBackendHint(sources), env, logger: bootLogger() });
  }
  const config = buildAppConfig(sources);
  const sinks = validateSinkSettings(config.logging.sinkOverrides, config.logging.customSinks);
  const logging = createLogging({
    dir: config.logging.dir,
    rootLevel: config.logging.rootLevel,
    enableCorrelation: config.logging.enableCorrelation,
    sinkOverrides: sinks.sinkOverrides,
    customSinks: sinks.customSinks,
    console: options.consoleDestination ? { destination: options.consoleDestination, worker: false } : undefined,
  });
  if (config.auth.devAuthBypass) {
    logging.forName('security').warn(
      { flag: 'SYNTHORG_DEV_AUTH_BYPASS' },
      'security.dev_auth_bypass.enabled: DEV AUTH BYPASS IS ON: POST /api/v1/auth/dev-login mints CEO sessions ' +
        'without a password. Never enable this in production.',
    );
  }
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config, logging, options.extraImports), {
    bufferLogs: true,
    bodyParser: false,
  });
  configureApp(app, config);
  return { app, config, logging };
}

/** HTTP platform settings shared by the server and the e2e tests. */
export function configureApp(app: NestExpressApplication, config: AppConfig): void {
  app.useLogger(app.get(Logger));
  app.set('trust proxy', config.server.trustProxy);
  app.disable('x-powered-by');
  app.use(requestIdMiddleware);
  app.useBodyParser('json', { limit: config.server.bodyLimit });
  app.setGlobalPrefix(API_PREFIX);
  app.useGlobalPipes(createValidationPipe());
  app.enableShutdownHooks();
  serveOpenApi(app, buildOpenApiDocument(app));
}

/** Starts the server: create, listen, log where. */
export async function startServer(options: BootstrapOptions = {}): Promise<CreatedApp> {
  const created = await createApp(options);
  const { app, config, logging } = created;
  await app.listen(config.server.port, config.server.host);
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : config.server.port;
  logging.forName('api').info(
    { host: config.server.host, port, backend: config.persistence.backend, log_dir: config.logging.dir },
    'api.server.started',
  );
  return created;
}

/** Closes the app and flushes every log sink (used by main on exit and by tests). */
export async function stopApp(created: { app: INestApplication; logging: LoggingRuntime }): Promise<void> {
  await created.app.close();
  await created.logging.close();
}

function bootLogger(): pino.Logger {
  return pino({ base: { logger: 'synthorg.startup' }, messageKey: 'event' }, pino.destination({ fd: 2, sync: true }));
}
