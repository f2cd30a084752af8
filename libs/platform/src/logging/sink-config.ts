import type { LogLevelName, WireLevel } from './levels';

export type RotationStrategy = 'builtin' | 'external';

/**
 * File rotation. `builtin` rotates in-process at `max_bytes` keeping `backup_count` numbered backups
 * (`name.log.1` … `name.log.N`, `.N.gz` when compressed); `external` never rotates and leaves the
 * file to logrotate (which must use `copytruncate`, as the file stays open in append mode).
 */
export interface RotationConfig {
  strategy: RotationStrategy;
  max_bytes: number;
  backup_count: number;
  compress_rotated: boolean;
}

export type SinkType = 'console' | 'file' | 'syslog' | 'http';

export const CONSOLE_SINK_ID = '__console__';

export const DEFAULT_ROTATION: Readonly<RotationConfig> = Object.freeze({
  strategy: 'builtin',
  max_bytes: 10_485_760,
  backup_count: 5,
  compress_rotated: false,
});

export interface DefaultSinkDefinition {
  /** `__console__` or the file name relative to the log directory. */
  readonly identifier: string;
  readonly sink_type: 'console' | 'file';
  readonly level: LogLevelName;
  readonly json_format: boolean;
  readonly rotation: Readonly<RotationConfig> | null;
  /** Logger-name prefixes routed to this sink; empty means every logger. */
  readonly routing_prefixes: readonly string[];
}

function fileSink(identifier: string, level: LogLevelName, prefixes: readonly string[] = []): DefaultSinkDefinition {
  return Object.freeze({
    identifier,
    sink_type: 'file',
    level,
    json_format: true,
    rotation: DEFAULT_ROTATION,
    routing_prefixes: Object.freeze([...prefixes]),
  });
}

export const DEFAULT_SINKS: readonly DefaultSinkDefinition[] = Object.freeze([
  Object.freeze({
    identifier: CONSOLE_SINK_ID,
    sink_type: 'console',
    level: 'info',
    json_format: false,
    rotation: null,
    routing_prefixes: Object.freeze([]),
  }),
  fileSink('synthorg.log', 'info'),
  fileSink('audit.log', 'info', ['synthorg.security.', 'synthorg.hr.', 'synthorg.observability.']),
  fileSink('errors.log', 'error'),
  fileSink('agent_activity.log', 'debug', [
    'synthorg.engine.',
    'synthorg.core.',
    'synthorg.communication.',
    'synthorg.tools.',
    'synthorg.memory.',
  ]),
  fileSink('cost_usage.log', 'info', ['synthorg.budget.', 'synthorg.providers.']),
  fileSink('debug.log', 'debug'),
  fileSink('access.log', 'info', ['synthorg.api.']),
  fileSink('persistence.log', 'info', ['synthorg.persistence.']),
  fileSink('configuration.log', 'info', ['synthorg.settings.', 'synthorg.config.']),
  fileSink('backup.log', 'info', ['synthorg.backup.']),
]);

/** File names of the default file sinks; custom file sinks may never reuse them, even when disabled. */
export const DEFAULT_FILE_NAMES: readonly string[] = DEFAULT_SINKS.filter((s) => s.sink_type === 'file').map(
  (s) => s.identifier,
);

/** Per-sink adjustments of a default sink (keyed by `__console__` or a default file name). */
export interface SinkOverride {
  enabled?: boolean;
  level?: LogLevelName;
  json_format?: boolean;
  /** Already merged over the default rotation by validation, hence complete. */
  rotation?: RotationConfig;
  routing_prefixes?: string[];
}

export interface FileSinkConfig {
  sink_type: 'file';
  /** Relative to the log directory, normalised, never absolute and never containing `..`. */
  file_path: string;
  level: LogLevelName;
  json_format: boolean;
  rotation: RotationConfig;
  routing_prefixes: string[];
}

export type SyslogFacility =
  | 'kern'
  | 'user'
  | 'mail'
  | 'daemon'
  | 'auth'
  | 'syslog'
  | 'lpr'
  | 'news'
  | 'uucp'
  | 'cron'
  | 'authpriv'
  | 'ftp'
  | 'local0'
  | 'local1'
  | 'local2'
  | 'local3'
  | 'local4'
  | 'local5'
  | 'local6'
  | 'local7';

/** RFC 5424 facility codes. */
export const SYSLOG_FACILITY_CODES: Readonly<Record<SyslogFacility, number>> = Object.freeze({
  kern: 0,
  user: 1,
  mail: 2,
  daemon: 3,
  auth: 4,
  syslog: 5,
  lpr: 6,
  news: 7,
  uucp: 8,
  cron: 9,
  authpriv: 10,
  ftp: 11,
  local0: 16,
  local1: 17,
  local2: 18,
  local3: 19,
  local4: 20,
  local5: 21,
  local6: 22,
  local7: 23,
});

export interface SyslogSinkConfig {
  sink_type: 'syslog';
  syslog_host: string;
  syslog_port: number;
  syslog_facility: SyslogFacility;
  syslog_protocol: 'udp' | 'tcp';
  level: LogLevelName;
}

export interface HttpSinkConfig {
  sink_type: 'http';
  http_url: string;
  http_headers: Record<string, string>;
  http_batch_size: number;
  http_flush_interval_seconds: number;
  http_timeout_seconds: number;
  http_max_retries: number;
  level: LogLevelName;
}

export type CustomSinkConfig = FileSinkConfig | SyslogSinkConfig | HttpSinkConfig;

export const SYSLOG_DEFAULTS: Readonly<{ port: number; facility: SyslogFacility; protocol: 'udp' | 'tcp' }> =
  Object.freeze({ port: 514, facility: 'user', protocol: 'udp' });

export const HTTP_DEFAULTS = Object.freeze({
  batchSize: 100,
  flushIntervalSeconds: 5,
  timeoutSeconds: 10,
  maxRetries: 3,
});

/** A sink as reported to the settings API. */
export interface SinkInfo {
  identifier: string;
  sink_type: SinkType;
  level: WireLevel;
  json_format: boolean;
  rotation: RotationConfig | null;
  is_default: boolean;
  enabled: boolean;
  routing_prefixes: string[];
}

/** Identifier a custom sink is listed under (and checked for uniqueness by). */
export function customSinkIdentifier(sink: CustomSinkConfig): string {
  switch (sink.sink_type) {
    case 'file':
      return sink.file_path;
    case 'syslog':
      // IPv6 literals are bracketed so the port stays unambiguous.
      return sink.syslog_host.includes(':')
        ? `[${sink.syslog_host}]:${sink.syslog_port}`
        : `${sink.syslog_host}:${sink.syslog_port}`;
    case 'http':
      return sink.http_url;
  }
}
