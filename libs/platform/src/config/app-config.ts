import { createHash, hkdfSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';

import { z } from 'zod';

import type { SettingBootSources } from '@app/domain';
import { DEFAULT_POOL, type PoolSettings } from '@app/persistence';

import { autoOrBool, bool, type Field, jsonSetting, nonEmpty, pick, port, readYaml } from './config-fields';
import { type ArtifactsConfig, artifactsConfig } from './artifacts.config';
import { type ConfigSources, looksLikePostgresUrl } from './config-sources';
import { webDirConfig } from './web-dir.config';

export type PersistenceBackend = 'sqlite' | 'postgres';
import type { LogLevelName } from '../logging/levels';

export type { LogLevelName };

/** Typed configuration, validated once at boot and injected (token APP_CONFIG). */
export interface AppConfig {
  readonly environment: 'development' | 'production' | 'test';
  readonly server: {
    readonly host: string;
    readonly port: number;
    /** Express `trust proxy` value: false, true, a hop count, or a list of addresses/subnets. */
    readonly trustProxy: boolean | number | string;
    /** `Secure` on the session and CSRF cookies: 'auto' when the request came over TLS, or forced on/off. */
    readonly cookieSecure: 'auto' | boolean;
    readonly shutdownGraceSeconds: number;
    readonly bodyLimit: string;
    /** The web console's build output, served at `/` when it holds an index.html; null: no console. */
    readonly webDir: string | null;
  };
  readonly persistence: {
    readonly backend: PersistenceBackend;
    readonly sqlitePath: string;
    readonly databaseUrl: string | null;
    /** Postgres: repeated statements run as named prepared statements (off behind a transaction-mode pooler). */
    readonly preparedStatements: boolean;
    /** Postgres: the service's connection pool of each replica. */
    readonly pool: PoolSettings;
    /** Postgres: the task job queue's pool (its own size; the same minimum, capped at it, and idle time). */
    readonly queuePool: PoolSettings;
    /**
     * Apply pending migrations at startup (default). Off, the service refuses a schema that is behind:
     * persistence stays unwired (readiness 503) until the `migrate` command has run.
     */
    readonly migrateOnStart: boolean;
  };
  /** Prometheus metrics on a port of their own (null: off). */
  readonly metrics: { readonly port: number | null; readonly host: string };
  readonly auth: {
    readonly jwtSecret: string;
    readonly devAuthBypass: boolean;
    readonly jwtExpiryMinutes: number;
  };
  readonly rateLimits: {
    readonly anonymousPerMinute: number;
    /** People (session tokens). */
    readonly authenticatedPerMinute: number;
    /** The System identity (the CLI's token). */
    readonly systemPerMinute: number;
    /** Service tokens (reserved: none are issued yet). */
    readonly servicePerMinute: number;
    /** Login, setup and change-password, per client and route. */
    readonly authEndpointsPerMinute: number;
    /** The service's own MCP endpoint, per user, on top of the general window. */
    readonly mcpPerMinute: number;
  };
  readonly logging: {
    readonly dir: string;
    readonly rootLevel: LogLevelName;
    readonly enableCorrelation: boolean;
    readonly sinkOverrides: unknown;
    readonly customSinks: unknown;
  };
  readonly secrets: SecretsKeyRing;
  readonly providers: {
    /** Refuse private, loopback, link-local and metadata addresses during discovery and probing. */
    readonly blockPrivateIps: boolean;
    /** Minutes between background health probes of local providers. */
    readonly healthProbeIntervalMinutes: number;
    /** Raw `providers.routing` block ({strategy, rules, fallback_chain}); parsed by the model router. */
    readonly routing: unknown;
  };
  readonly engine: EngineConfig;
  readonly artifacts: ArtifactsConfig;
  /** The environment and YAML tiers the runtime settings registry resolves below the database. */
  readonly settingSources: SettingBootSources;
  /** The YAML configuration file the service started from (null: none); backups carry it. */
  readonly configFile: string | null;
}

/** The work engine: how many runs, how long they may take, where their workspaces live. */
export interface EngineConfig {
  /** Runs start when tasks are assigned; off = tasks are only stored and moved by hand. */
  readonly enabled: boolean;
  /** Root of the shared git repository and the per-task worktrees. */
  readonly workspaceDir: string;
  readonly maxTurns: number;
  /** Concurrent runs on this replica. */
  readonly concurrency: number;
  /** Concurrent runs of one agent on this replica. */
  readonly perAgentConcurrency: number;
  readonly maxWorktrees: number;
  /** Cooperative stop on SIGTERM: how long runs get to reach a turn boundary. */
  readonly graceSeconds: number;
  readonly heartbeatSeconds: number;
  /**
   * Postgres: how long a replica's liveness lock must be missing (seen at two looks this far apart)
   * before its runs are taken over; 0 falls back to heartbeats alone (three missed beats).
   */
  readonly livenessGraceSeconds: number;
  readonly callTimeoutSeconds: number;
  readonly toolTimeoutSeconds: number;
}

/** Keys of the at-rest encryption of provider secrets: the current one encrypts, all decrypt. */
export interface SecretsKeyRing {
  readonly currentKeyId: string;
  readonly keys: ReadonlyMap<string, Buffer>;
  /** True when no key was configured and the key was derived from the signing secret. */
  readonly derived: boolean;
}

export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

export const JWT_SECRET_MIN_LENGTH = 32;

function parseTrustProxy(value: string): boolean | number | string {
  const v = value.trim().toLowerCase();
  if (v === 'true' || v === 'false') {
    return v === 'true';
  }
  return /^\d+$/.test(v) ? Number(v) : value.trim();
}

/** The signing secret: env value, else a mounted file (`*_FILE`). Missing or short → a clear startup error. */
function resolveJwtSecret(sources: ConfigSources, problems: string[]): string {
  const direct = sources.env.SYNTHORG_JWT_SECRET;
  const file = sources.env.SYNTHORG_JWT_SECRET_FILE;
  let secret: string | undefined;
  let origin = 'SYNTHORG_JWT_SECRET';
  if (direct !== undefined && direct !== '') {
    secret = direct;
  } else if (file !== undefined && file !== '') {
    origin = 'SYNTHORG_JWT_SECRET_FILE';
    try {
      secret = readFileSync(resolve(sources.cwd, file), 'utf8').trim();
    } catch (error) {
      problems.push(`SYNTHORG_JWT_SECRET_FILE=${JSON.stringify(file)}: cannot read: ${(error as Error).message}`);
      return '';
    }
  }
  if (secret === undefined) {
    problems.push(
      'SYNTHORG_JWT_SECRET: the session signing secret is not set (set SYNTHORG_JWT_SECRET or SYNTHORG_JWT_SECRET_FILE; ' +
        `at least ${JWT_SECRET_MIN_LENGTH} characters)`,
    );
    return '';
  }
  if (secret.length < JWT_SECRET_MIN_LENGTH) {
    problems.push(`${origin}: the signing secret must be at least ${JWT_SECRET_MIN_LENGTH} characters`);
  }
  return secret;
}

/**
 * The YAML `providers.routing` block (rules, fallback chain). Its strategy is the runtime setting
 * `providers.routing_strategy`, which reads this block and `SYNTHORG_ROUTING_STRATEGY` as sources.
 */
function routingBlock(sources: ConfigSources): unknown {
  return readYaml(sources.yaml, ['providers', 'routing']) ?? {};
}

const SECRET_KEY_BYTES = 32;

function decodeKey(raw: string): Buffer | null {
  const value = raw.trim();
  if (/^[0-9a-f]{64}$/i.test(value)) {
    return Buffer.from(value, 'hex');
  }
  const decoded = Buffer.from(value, value.includes('-') || value.includes('_') ? 'base64url' : 'base64');
  return decoded.length === SECRET_KEY_BYTES ? decoded : null;
}

/** A stable, non-secret id of a key: stored beside each ciphertext so rotation knows which key to use. */
export function secretKeyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 12);
}

/**
 * The key ring of provider-secret encryption. `SYNTHORG_SECRETS_KEY` (or `_FILE`): 32 bytes as
 * 64 hex characters or base64; `SYNTHORG_SECRETS_PREVIOUS_KEYS`: comma-separated older keys still
 * accepted for decryption (rows are re-encrypted with the current key at startup). Without a key
 * the ring derives one from the signing secret (HKDF-SHA256), flagged `derived`.
 */
function resolveSecretsKeyRing(sources: ConfigSources, jwtSecret: string, problems: string[]): SecretsKeyRing {
  const direct = sources.env.SYNTHORG_SECRETS_KEY;
  const file = sources.env.SYNTHORG_SECRETS_KEY_FILE;
  let raw: string | undefined;
  let origin = 'SYNTHORG_SECRETS_KEY';
  if (direct !== undefined && direct !== '') {
    raw = direct;
  } else if (file !== undefined && file !== '') {
    origin = 'SYNTHORG_SECRETS_KEY_FILE';
    try {
      raw = readFileSync(resolve(sources.cwd, file), 'utf8');
    } catch (error) {
      problems.push(`SYNTHORG_SECRETS_KEY_FILE=${JSON.stringify(file)}: cannot read: ${(error as Error).message}`);
    }
  }
  const keys = new Map<string, Buffer>();
  let current: Buffer;
  let derived = false;
  if (raw !== undefined) {
    const key = decodeKey(raw);
    if (!key) {
      problems.push(`${origin}: expected a 32-byte key as 64 hex characters or base64`);
    }
    current = key ?? Buffer.alloc(SECRET_KEY_BYTES);
  } else {
    derived = true;
    current = Buffer.from(
      hkdfSync('sha256', jwtSecret || 'unset', 'synthorg', 'provider-secrets-v1', SECRET_KEY_BYTES),
    );
  }
  const currentKeyId = secretKeyId(current);
  keys.set(currentKeyId, current);
  const previous = sources.env.SYNTHORG_SECRETS_PREVIOUS_KEYS;
  if (previous !== undefined && previous.trim() !== '') {
    previous.split(',').forEach((entry, index) => {
      const key = decodeKey(entry);
      if (!key) {
        problems.push(`SYNTHORG_SECRETS_PREVIOUS_KEYS: entry ${index + 1} is not a 32-byte key (hex or base64)`);
        return;
      }
      keys.set(secretKeyId(key), key);
    });
  }
  return { currentKeyId, keys, derived };
}

/** Builds and validates the whole configuration; every problem names its variable (or YAML key). */
type FieldReader = <T>(field: Field<T>) => T;

/** A whole number within [min, max], read from text (variables) or a number (YAML). */
const int = (min: number, max: number) => z.coerce.number().int('expected an integer').min(min).max(max);

function engineConfig(f: FieldReader, cwd: string): EngineConfig {
  const workspaceDir = f({
    env: 'SYNTHORG_WORKSPACE_DIR',
    yaml: ['engine', 'workspace_dir'],
    schema: nonEmpty,
    fallback: 'data/workspace',
  });
  const n = (env: string, key: string, min: number, max: number, fallback: number): number =>
    f({ env, yaml: ['engine', key], schema: int(min, max), fallback });
  return {
    enabled: f({ env: 'SYNTHORG_ENGINE_ENABLED', yaml: ['engine', 'enabled'], schema: bool, fallback: true }),
    workspaceDir: resolve(cwd, workspaceDir),
    maxTurns: n('SYNTHORG_ENGINE_MAX_TURNS', 'max_turns', 1, 200, 20),
    concurrency: n('SYNTHORG_ENGINE_CONCURRENCY', 'concurrency', 1, 256, 8),
    perAgentConcurrency: n('SYNTHORG_ENGINE_AGENT_CONCURRENCY', 'per_agent_concurrency', 1, 64, 5),
    maxWorktrees: n('SYNTHORG_ENGINE_MAX_WORKTREES', 'max_worktrees', 1, 32, 32),
    graceSeconds: n('SYNTHORG_ENGINE_GRACE_SECONDS', 'grace_seconds', 0, 300, 30),
    heartbeatSeconds: n('SYNTHORG_ENGINE_HEARTBEAT_SECONDS', 'heartbeat_seconds', 1, 600, 15),
    livenessGraceSeconds: n('SYNTHORG_ENGINE_LIVENESS_GRACE_SECONDS', 'liveness_grace_seconds', 0, 300, 5),
    callTimeoutSeconds: n('SYNTHORG_ENGINE_CALL_TIMEOUT_SECONDS', 'call_timeout_seconds', 1, 3600, 120),
    toolTimeoutSeconds: n('SYNTHORG_ENGINE_TOOL_TIMEOUT_SECONDS', 'tool_timeout_seconds', 1, 3600, 60),
  };
}

/** The Postgres pools; a minimum above the service pool's size is a problem of the configuration. */
function poolConfig(f: FieldReader, problems: string[]): Pick<AppConfig['persistence'], 'pool' | 'queuePool'> {
  const n = (env: string, key: string, min: number, max: number, fallback: number): number =>
    f({ env, yaml: ['persistence', key], schema: int(min, max), fallback });
  const size = n('SYNTHORG_DB_POOL_SIZE', 'pool_size', 1, 1000, DEFAULT_POOL.size);
  const minIdle = n('SYNTHORG_DB_POOL_MIN_IDLE', 'pool_min_idle', 0, 1000, DEFAULT_POOL.minIdle);
  const idleSeconds = n('SYNTHORG_DB_POOL_IDLE_SECONDS', 'pool_idle_seconds', 1, 86_400, DEFAULT_POOL.idleSeconds);
  const queueSize = n('SYNTHORG_DB_QUEUE_POOL_SIZE', 'queue_pool_size', 1, 1000, DEFAULT_POOL.size);
  if (minIdle > size) {
    problems.push(
      `SYNTHORG_DB_POOL_MIN_IDLE (persistence.pool_min_idle): ${minIdle} connections kept open while idle ` +
        `do not fit in a pool of SYNTHORG_DB_POOL_SIZE (persistence.pool_size) = ${size}`,
    );
  }
  // The queue keeps as many idle as fit in it (pgPoolOptions caps the minimum at the size).
  return { pool: { size, minIdle, idleSeconds }, queuePool: { size: queueSize, minIdle, idleSeconds } };
}

/** The persistence fields: what the service and the `migrate` command need to reach the database. */
function persistenceFields(f: FieldReader, sources: ConfigSources, problems: string[]): AppConfig['persistence'] {
  const databaseUrl = f<string | null>({
    env: 'SYNTHORG_DATABASE_URL',
    yaml: ['persistence', 'database_url'],
    schema: nonEmpty.refine(looksLikePostgresUrl, 'expected a postgres:// or postgresql:// URL with a host'),
    fallback: null,
  });
  const sqlitePath = f({
    env: 'SYNTHORG_DB_PATH',
    yaml: ['persistence', 'sqlite_path'],
    schema: nonEmpty,
    fallback: 'data/synthorg.db',
  });
  return {
    backend: databaseUrl ? 'postgres' : 'sqlite',
    sqlitePath: isAbsolute(sqlitePath) || sqlitePath === ':memory:' ? sqlitePath : resolve(sources.cwd, sqlitePath),
    databaseUrl,
    preparedStatements: f({
      env: 'SYNTHORG_DB_PREPARED_STATEMENTS',
      yaml: ['persistence', 'prepared_statements'],
      schema: bool,
      fallback: true,
    }),
    ...poolConfig(f, problems),
    migrateOnStart: f({
      env: 'SYNTHORG_DB_MIGRATE_ON_START',
      yaml: ['persistence', 'migrate_on_start'],
      schema: bool,
      fallback: true,
    }),
  };
}

/** The metrics listener: a port of its own, off unless one is given (0 picks a free port). */
function metricsConfig(f: FieldReader, serverHost: string): AppConfig['metrics'] {
  return {
    port: f<number | null>({ env: 'SYNTHORG_METRICS_PORT', yaml: ['metrics', 'port'], schema: port, fallback: null }),
    // The API's listen address unless told otherwise: loopback on a workstation, all in the container.
    host: f({ env: 'SYNTHORG_METRICS_HOST', yaml: ['metrics', 'host'], schema: nonEmpty, fallback: serverHost }),
  };
}

/**
 * The persistence configuration alone (the `migrate` command): the signing secret and the rest of
 * the service's configuration are not needed to migrate, and are not checked.
 */
export function buildPersistenceConfig(sources: ConfigSources): AppConfig['persistence'] {
  const problems: string[] = [];
  if (sources.yamlError) {
    problems.push(sources.yamlError);
  }
  const persistence = persistenceFields(<T>(field: Field<T>): T => pick(sources, field, problems), sources, problems);
  if (problems.length > 0) {
    throw new ConfigError(problems);
  }
  return persistence;
}

export function buildAppConfig(sources: ConfigSources): AppConfig {
  const problems: string[] = [];
  if (sources.yamlError) {
    problems.push(sources.yamlError);
  }
  const f = <T>(field: Field<T>): T => pick(sources, field, problems);
  const environment = f({
    env: 'SYNTHORG_ENV',
    yaml: ['environment'],
    schema: z.enum(['development', 'production', 'test']),
    fallback: 'development' as const,
  });
  const config: Omit<AppConfig, 'metrics'> = {
    environment,
    server: {
      host: f({
        setting: 'api.server_host',
        env: 'SYNTHORG_HOST',
        yaml: ['server', 'host'],
        schema: nonEmpty,
        fallback: '127.0.0.1',
      }),
      port: f({
        setting: 'api.server_port',
        env: 'SYNTHORG_PORT',
        yaml: ['server', 'port'],
        schema: port,
        fallback: 8000,
      }),
      trustProxy: f({
        env: 'SYNTHORG_TRUST_PROXY',
        yaml: ['server', 'trust_proxy'],
        schema: nonEmpty.transform(parseTrustProxy),
        fallback: false,
      }),
      cookieSecure: f({
        env: 'SYNTHORG_COOKIE_SECURE',
        yaml: ['server', 'cookie_secure'],
        schema: autoOrBool,
        fallback: 'auto' as const,
      }),
      shutdownGraceSeconds: f({
        env: 'SYNTHORG_SHUTDOWN_GRACE_SECONDS',
        yaml: ['server', 'shutdown_grace_seconds'],
        schema: z.coerce.number().min(0).max(300),
        fallback: 30,
      }),
      bodyLimit: f({
        env: 'SYNTHORG_BODY_LIMIT',
        yaml: ['server', 'body_limit'],
        schema: z.string().regex(/^\d+(b|kb|mb)$/i, 'expected a size such as 1mb or 512kb'),
        fallback: '1mb',
      }),
      webDir: webDirConfig(f, sources),
    },
    persistence: persistenceFields(f, sources, problems),
    auth: {
      jwtSecret: resolveJwtSecret(sources, problems),
      devAuthBypass: f({
        env: 'SYNTHORG_DEV_AUTH_BYPASS',
        yaml: ['auth', 'dev_auth_bypass'],
        schema: bool,
        fallback: false,
      }),
      jwtExpiryMinutes: f({
        setting: 'api.jwt_expiry_minutes',
        env: 'SYNTHORG_JWT_EXPIRY_MINUTES',
        yaml: ['auth', 'jwt_expiry_minutes'],
        schema: z.coerce.number().int().min(1).max(43200),
        fallback: 1440,
      }),
    },
    rateLimits: {
      anonymousPerMinute: f({
        setting: 'api.rate_limit_unauth_max_requests',
        env: 'SYNTHORG_RATE_LIMIT_ANONYMOUS_PER_MINUTE',
        yaml: ['rate_limits', 'anonymous_per_minute'],
        schema: z.coerce.number().int().min(1).max(100_000),
        fallback: 120,
      }),
      authenticatedPerMinute: f({
        setting: 'api.rate_limit_auth_max_requests',
        env: 'SYNTHORG_RATE_LIMIT_AUTHENTICATED_PER_MINUTE',
        yaml: ['rate_limits', 'authenticated_per_minute'],
        schema: z.coerce.number().int().min(1).max(1_000_000),
        fallback: 6000,
      }),
      systemPerMinute: f({
        env: 'SYNTHORG_RATE_LIMIT_SYSTEM_PER_MINUTE',
        yaml: ['rate_limits', 'system_per_minute'],
        schema: z.coerce.number().int().min(1).max(1_000_000),
        fallback: 60_000,
      }),
      servicePerMinute: f({
        env: 'SYNTHORG_RATE_LIMIT_SERVICE_PER_MINUTE',
        yaml: ['rate_limits', 'service_per_minute'],
        schema: z.coerce.number().int().min(1).max(1_000_000),
        fallback: 60_000,
      }),
      authEndpointsPerMinute: f({
        env: 'SYNTHORG_RATE_LIMIT_AUTH_PER_MINUTE',
        yaml: ['rate_limits', 'auth_per_minute'],
        schema: z.coerce.number().int().min(1).max(10_000),
        fallback: 10,
      }),
      mcpPerMinute: f({
        setting: 'api.rate_limit_mcp_max_requests',
        env: 'SYNTHORG_RATE_LIMIT_MCP_PER_MINUTE',
        yaml: ['rate_limits', 'mcp_per_minute'],
        schema: z.coerce.number().int().min(1).max(1_000_000),
        fallback: 600,
      }),
    },
    logging: {
      dir: resolve(
        sources.cwd,
        f({ env: 'SYNTHORG_LOG_DIR', yaml: ['logging', 'dir'], schema: nonEmpty, fallback: 'logs' }),
      ),
      rootLevel: f({
        setting: 'observability.root_log_level',
        env: 'SYNTHORG_LOG_LEVEL',
        yaml: ['logging', 'root_level'],
        schema: z
          .string()
          .trim()
          .toLowerCase()
          .pipe(z.enum(['debug', 'info', 'warning', 'error', 'critical'])),
        fallback: 'info' as const,
      }),
      enableCorrelation: f({
        setting: 'observability.enable_correlation',
        yaml: ['logging', 'enable_correlation'],
        schema: bool,
        fallback: true,
      }),
      sinkOverrides: jsonSetting(sources, 'observability.sink_overrides', ['logging', 'sink_overrides'], {}),
      customSinks: jsonSetting(sources, 'observability.custom_sinks', ['logging', 'custom_sinks'], []),
    },
    secrets: { currentKeyId: '', keys: new Map(), derived: true },
    providers: {
      blockPrivateIps: f({
        env: 'SYNTHORG_DISCOVERY_BLOCK_PRIVATE_IPS',
        yaml: ['providers', 'discovery', 'block_private_ips'],
        schema: bool,
        fallback: true,
      }),
      healthProbeIntervalMinutes: f({
        env: 'SYNTHORG_PROVIDER_HEALTH_PROBE_MINUTES',
        yaml: ['providers', 'health_probe_interval_minutes'],
        schema: z.coerce.number().int().min(1).max(1440),
        fallback: 30,
      }),
      routing: routingBlock(sources),
    },
    engine: engineConfig(f, sources.cwd),
    artifacts: artifactsConfig(f, sources.cwd),
    settingSources: { env: sources.env, yaml: sources.yaml },
    configFile: sources.yamlPath,
  };
  const withSecrets: AppConfig = {
    ...config,
    metrics: metricsConfig(f, config.server.host),
    secrets: resolveSecretsKeyRing(sources, config.auth.jwtSecret, problems),
  };
  if (problems.length > 0) {
    throw new ConfigError(problems);
  }
  return withSecrets;
}
