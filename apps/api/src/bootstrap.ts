import type { DynamicModule, INestApplication, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { WsAdapter } from '@nestjs/platform-ws';
import cookieParser from 'cookie-parser';
import { json } from 'express';
import { Logger as NestPinoLogger } from 'nestjs-pino';
import pino from 'pino';

import {
  answerClientErrors,
  type AppConfig,
  buildAppConfig,
  COOKIE_SECURE_SETTING,
  createConsoleStatic,
  createHttpMetricsMiddleware,
  createTracingMiddleware,
  createLogging,
  createProtectiveHeaders,
  createValidationPipe,
  JsonReplyExpressAdapter,
  type LoggingRuntime,
  readConfigSources,
  readStoredSettings,
  createRequestBodyMiddleware,
  createRequestContextMiddleware,
  resolveBackendHint,
  ServiceMetrics,
  ShutdownState,
  runBinaryPreflight,
  StartupResumeHooks,
  tracingEnabled,
  type ValidatedSinkSettings,
  validateSinkSettings,
} from '@app/platform';

import { AppModule } from './app.module';
import { buildOpenApiDocument, serveOpenApi } from './openapi/openapi';
import { SEMI_SPACE_FLAG, semiSpaceFlagMissing } from './runtime-flags';
import { shutdownTracing } from './telemetry/tracing';

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
  // The environment and YAML locate the database; what is stored there then overrides them for the
  // restart-required settings read at boot (and for the live logging settings, from the first record).
  const located = buildAppConfig(sources);
  const stored = await readStoredSettings(located.persistence);
  const config = stored.values.size > 0 ? buildAppConfig({ ...sources, stored: stored.values }) : located;
  const sinks = bootSinkSettings(config, stored.values);
  const logging = createLogging({
    dir: config.logging.dir,
    rootLevel: config.logging.rootLevel,
    enableCorrelation: config.logging.enableCorrelation,
    sinkOverrides: sinks.sinkOverrides,
    customSinks: sinks.customSinks,
    console: options.consoleDestination ? { destination: options.consoleDestination } : undefined,
    // The server's request thread only queues records; the sinks run on a thread of their own.
    sinkThread: 'worker',
  });
  if (stored.problem !== null) {
    logging.forName('config').warn({ reason: stored.problem }, 'config.stored_settings.unreadable');
  }
  if (config.auth.devAuthBypass) {
    logging
      .forName('security')
      .warn(
        { flag: 'SYNTHORG_DEV_AUTH_BYPASS' },
        'security.dev_auth_bypass.enabled: DEV AUTH BYPASS IS ON: POST /api/v1/auth/dev-login mints CEO sessions ' +
          'without a password. Never enable this in production.',
      );
  }
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.forRoot(config, logging, options.extraImports),
    new JsonReplyExpressAdapter(),
    {
      bufferLogs: true,
      bodyParser: false,
    },
  );
  configureApp(app, config, logging);
  return { app, config, logging };
}

/**
 * The sink settings to start with. Invalid YAML aborts startup (an operator's file, shown at once);
 * stored values were validated when written, and should they no longer pass, the defaults apply.
 */
function bootSinkSettings(config: AppConfig, stored: ReadonlyMap<string, string>): ValidatedSinkSettings {
  try {
    return validateSinkSettings(config.logging.sinkOverrides, config.logging.customSinks);
  } catch (error) {
    if (!stored.has('observability.sink_overrides') && !stored.has('observability.custom_sinks')) {
      throw error;
    }
    bootLogger().warn({ reason: (error as Error).message }, 'config.stored_sinks.invalid');
    return { sinkOverrides: {}, customSinks: [] };
  }
}

/** HTTP platform settings shared by the server and the e2e tests. */
export function configureApp(app: NestExpressApplication, config: AppConfig, logging: LoggingRuntime): void {
  app.useLogger(app.get(NestPinoLogger));
  app.set('trust proxy', config.server.trustProxy);
  app.set(COOKIE_SECURE_SETTING, config.server.cookieSecure);
  app.disable('x-powered-by');
  answerClientErrors(app.getHttpServer());
  app.use(createHttpMetricsMiddleware(app.get(ServiceMetrics)));
  app.use(createProtectiveHeaders({ docsPrefix: '/docs' }));
  // API responses are not cache-validated; hashing every JSON body for a weak ETag is wasted work.
  app.set('etag', false);
  app.use(
    createRequestContextMiddleware({
      accessLog: logging.prebuilt('api.access'),
      // Probes run every few seconds on every replica; their lines would drown the access log.
      quietPathPrefixes: [`/${API_PREFIX}/health/`],
    }),
  );
  if (tracingEnabled()) {
    app.use(createTracingMiddleware());
  }
  serveConsole(app, config, logging);
  app.use(cookieParser());
  app.use(createRequestBodyMiddleware(json({ limit: config.server.bodyLimit })));
  app.setGlobalPrefix(API_PREFIX);
  app.useGlobalPipes(createValidationPipe());
  app.useWebSocketAdapter(new WsAdapter(app));
  // Built on the first request for it: startup does not wait for a document few clients fetch.
  serveOpenApi(app, () => buildOpenApiDocument(app));
}

/**
 * The web console at `/`, from its build output, when there is one: its files, and index.html for
 * page requests outside the API and the documentation (which the console's own router then reads).
 */
function serveConsole(app: NestExpressApplication, config: AppConfig, logging: LoggingRuntime): void {
  const dir = config.server.webDir;
  const handler = dir === null ? null : createConsoleStatic({ dir, reservedPrefixes: ['/api', '/docs'] });
  const log = logging.forName('api');
  if (handler === null) {
    log.info({ web_dir: dir, reason: dir === null ? 'disabled' : 'no index.html' }, 'api.console.absent');
    return;
  }
  app.use(handler);
  log.info({ web_dir: dir }, 'api.console.served');
}

/** Starts the server: create, listen, log where. */
export async function startServer(options: BootstrapOptions = {}): Promise<CreatedApp> {
  const created = await createApp(options);
  const { app, config, logging } = created;
  installSignalHandlers(created);
  await app.listen(config.server.port, config.server.host);
  // Startup's last step (rule 11): resume what a previous process decided; failures never block boot.
  await app.get(StartupResumeHooks).runAll();
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : config.server.port;
  logging
    .forName('api')
    .info(
      { host: config.server.host, port, backend: config.persistence.backend, log_dir: config.logging.dir },
      'api.server.started',
    );
  if (semiSpaceFlagMissing(process.execArgv, process.env.NODE_OPTIONS)) {
    logging
      .forName('api')
      .warn(
        { flag: SEMI_SPACE_FLAG },
        `api.runtime.flag_missing: started without ${SEMI_SPACE_FLAG}; expect a 2-3x higher p99 latency. ` +
          'Start with npm start, npm run start:prod or the image, or add the flag (see docs/benchmarks.md).',
      );
  }
  return created;
}

/**
 * SIGTERM/SIGINT: readiness turns 503 first, in-flight requests drain while the HTTP server closes,
 * shutdown hooks run (persistence closes last), logs are flushed, and the process exits 0. A second
 * signal, or the grace period running out, forces the exit.
 */
export function installSignalHandlers(created: CreatedApp): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (stopping) {
      process.exit(1);
    }
    stopping = true;
    // Runs get the engine's grace to reach a turn boundary, then a few seconds to record it.
    const { server, engine } = created.config;
    const graceMs = (Math.max(server.shutdownGraceSeconds, engine.graceSeconds + 5) + 5) * 1000;
    setTimeout(() => process.exit(1), graceMs).unref();
    created.app.get(ShutdownState).beginDrain(signal);
    stopApp(created).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

/** Closes the app and flushes every log sink (used by main on exit and by tests). */
export async function stopApp(created: { app: INestApplication; logging: LoggingRuntime }): Promise<void> {
  await created.app.close();
  await shutdownTracing();
  await created.logging.close();
}

/** Before the configured sinks exist (preflight), startup events go to stderr as JSON lines. */
function bootLogger(): pino.Logger {
  return pino(
    {
      base: { logger: 'synthorg.startup' },
      messageKey: 'event',
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label === 'warn' ? 'WARNING' : label.toUpperCase() }) },
    },
    pino.destination({ fd: 2, sync: true }),
  );
}
