import { posix, win32 } from 'node:path';

import {
  type CustomSinkConfig,
  DEFAULT_FILE_NAMES,
  DEFAULT_ROTATION,
  type FileSinkConfig,
  HTTP_DEFAULTS,
  type HttpSinkConfig,
  SYSLOG_DEFAULTS,
  SYSLOG_FACILITY_CODES,
  type SyslogFacility,
  type SyslogSinkConfig,
} from './sink-config';
import {
  invalidSinkConfig,
  type PlainObject,
  readBoolean,
  readLevel,
  readNumber,
  readRotation,
  readRoutingPrefixes,
  readString,
  rejectUnknownKeys,
  requireObject,
} from './sink-validation-fields';

const COMMON_FIELDS = ['sink_type', 'level'] as const;
const FIELDS_BY_TYPE = {
  file: ['file_path', 'json_format', 'rotation', 'routing_prefixes'],
  syslog: ['syslog_host', 'syslog_port', 'syslog_facility', 'syslog_protocol'],
  http: [
    'http_url',
    'http_headers',
    'http_batch_size',
    'http_flush_interval_seconds',
    'http_timeout_seconds',
    'http_max_retries',
  ],
} as const satisfies Record<CustomSinkConfig['sink_type'], readonly string[]>;

type CustomSinkType = keyof typeof FIELDS_BY_TYPE;
const SINK_TYPES = Object.keys(FIELDS_BY_TYPE) as CustomSinkType[];

/** Explains a field that belongs to another sink type, so the message points at the real mistake. */
function describeForeignField(key: string, type: CustomSinkType): string | undefined {
  const owner = SINK_TYPES.find((t) => (FIELDS_BY_TYPE[t] as readonly string[]).includes(key));
  return owner && owner !== type ? `field '${key}' belongs to sink_type '${owner}', not '${type}'` : undefined;
}

/** Parses one entry of `custom_sinks`; `where` names it in error messages. */
export function parseCustomSink(value: unknown, where: string): CustomSinkConfig {
  const raw = requireObject(value, where);
  const type = raw['sink_type'] ?? 'file';
  if (typeof type !== 'string' || !(SINK_TYPES as string[]).includes(type)) {
    invalidSinkConfig(`${where}: 'sink_type' must be one of ${SINK_TYPES.join(', ')}`);
  }
  const sinkType = type as CustomSinkType;
  const at = `${where} (sink_type '${sinkType}')`;
  // syslog and http always carry JSON, so only a redundant `json_format: true` is tolerated there.
  if (sinkType !== 'file' && raw['json_format'] !== undefined) {
    if (raw['json_format'] !== true) {
      invalidSinkConfig(`${at}: ${sinkType} sinks always emit JSON; 'json_format' cannot be false`);
    }
  }
  const allowed = [...COMMON_FIELDS, ...FIELDS_BY_TYPE[sinkType], ...(sinkType === 'file' ? [] : ['json_format'])];
  rejectUnknownKeys(raw, allowed, at, (key) => describeForeignField(key, sinkType));
  switch (sinkType) {
    case 'file':
      return parseFileSink(raw, at);
    case 'syslog':
      return parseSyslogSink(raw, at);
    case 'http':
      return parseHttpSink(raw, at);
  }
}

function parseFileSink(raw: PlainObject, at: string): FileSinkConfig {
  const filePath = readString(raw, 'file_path', at);
  if (filePath === undefined) {
    invalidSinkConfig(`${at}: 'file_path' is required`);
  }
  return {
    sink_type: 'file',
    file_path: normaliseFilePath(filePath, at),
    level: readLevel(raw, 'level', at) ?? 'info',
    json_format: readBoolean(raw, 'json_format', at) ?? true,
    rotation: readRotation(raw, 'rotation', at) ?? { ...DEFAULT_ROTATION },
    routing_prefixes: readRoutingPrefixes(raw, 'routing_prefixes', at) ?? [],
  };
}

/** Keeps custom files inside the log directory: relative, no `..`, no control characters. */
export function normaliseFilePath(filePath: string, at: string): string {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\\]/.test(filePath)) {
    invalidSinkConfig(`${at}: 'file_path' must not contain backslashes or control characters`);
  }
  if (posix.isAbsolute(filePath) || win32.isAbsolute(filePath)) {
    invalidSinkConfig(`${at}: 'file_path' must be relative to the log directory, got an absolute path`);
  }
  if (filePath.split('/').includes('..')) {
    invalidSinkConfig(`${at}: 'file_path' must not contain '..'`);
  }
  const normalised = posix.normalize(filePath);
  if (normalised === '.' || normalised.endsWith('/') || posix.basename(normalised) === '.') {
    invalidSinkConfig(`${at}: 'file_path' must name a file`);
  }
  return normalised;
}

const HOST = /^[A-Za-z0-9._%:-]+$/;
const PORT_RANGE = { min: 1, max: 65535, integer: true };

function parseSyslogSink(raw: PlainObject, at: string): SyslogSinkConfig {
  let host = readString(raw, 'syslog_host', at);
  if (host === undefined) {
    invalidSinkConfig(`${at}: 'syslog_host' is required`);
  }
  if (host.startsWith('[') && host.endsWith(']')) {
    host = host.slice(1, -1);
  }
  if (host.length > 253 || !HOST.test(host)) {
    invalidSinkConfig(`${at}: 'syslog_host' must be a host name or IP address`);
  }
  const facility = raw['syslog_facility'] ?? SYSLOG_DEFAULTS.facility;
  if (typeof facility !== 'string' || !Object.hasOwn(SYSLOG_FACILITY_CODES, facility)) {
    invalidSinkConfig(`${at}: 'syslog_facility' must be one of ${Object.keys(SYSLOG_FACILITY_CODES).join(', ')}`);
  }
  const protocol = raw['syslog_protocol'] ?? SYSLOG_DEFAULTS.protocol;
  if (protocol !== 'udp' && protocol !== 'tcp') {
    invalidSinkConfig(`${at}: 'syslog_protocol' must be 'udp' or 'tcp'`);
  }
  return {
    sink_type: 'syslog',
    syslog_host: host.toLowerCase(),
    syslog_port: readNumber(raw, 'syslog_port', at, PORT_RANGE) ?? SYSLOG_DEFAULTS.port,
    syslog_facility: facility as SyslogFacility,
    syslog_protocol: protocol,
    level: readLevel(raw, 'level', at) ?? 'info',
  };
}

function parseHttpSink(raw: PlainObject, at: string): HttpSinkConfig {
  const url = readString(raw, 'http_url', at);
  if (url === undefined) {
    invalidSinkConfig(`${at}: 'http_url' is required`);
  }
  return {
    sink_type: 'http',
    http_url: parseHttpUrl(url, at),
    http_headers: parseHeaders(raw['http_headers'], at),
    http_batch_size:
      readNumber(raw, 'http_batch_size', at, { min: 10, max: 1000, integer: true }) ?? HTTP_DEFAULTS.batchSize,
    http_flush_interval_seconds:
      readNumber(raw, 'http_flush_interval_seconds', at, { min: 0.5, max: 60, integer: false }) ??
      HTTP_DEFAULTS.flushIntervalSeconds,
    http_timeout_seconds:
      readNumber(raw, 'http_timeout_seconds', at, { min: 1, max: 60, integer: false }) ?? HTTP_DEFAULTS.timeoutSeconds,
    http_max_retries:
      readNumber(raw, 'http_max_retries', at, { min: 0, max: 10, integer: true }) ?? HTTP_DEFAULTS.maxRetries,
    level: readLevel(raw, 'level', at) ?? 'info',
  };
}

function parseHttpUrl(value: string, at: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    invalidSinkConfig(`${at}: 'http_url' is not a valid URL`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') {
    invalidSinkConfig(`${at}: 'http_url' must be an http:// or https:// URL with a host`);
  }
  // The URL is listed by the sinks API; credentials belong in http_headers, which is never listed.
  if (url.username !== '' || url.password !== '') {
    invalidSinkConfig(`${at}: 'http_url' must not embed credentials; use http_headers`);
  }
  return url.href;
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// Framing headers are computed by the HTTP client; letting configuration set them breaks requests.
const RESERVED_HEADERS = [
  'content-length',
  'connection',
  'transfer-encoding',
  'host',
  'keep-alive',
  'upgrade',
  'expect',
];

function parseHeaders(value: unknown, at: string): Record<string, string> {
  if (value === undefined) {
    return {};
  }
  const raw = requireObject(value, `${at}: 'http_headers'`);
  const headers: Record<string, string> = {};
  for (const [name, headerValue] of Object.entries(raw)) {
    if (!HEADER_NAME.test(name) || RESERVED_HEADERS.includes(name.toLowerCase())) {
      invalidSinkConfig(`${at}: 'http_headers' has an invalid or reserved header name '${name}'`);
    }
    // eslint-disable-next-line no-control-regex
    if (typeof headerValue !== 'string' || /[\r\n\u0000]/.test(headerValue)) {
      invalidSinkConfig(`${at}: 'http_headers.${name}' must be a string without line breaks`);
    }
    headers[name] = headerValue;
  }
  return headers;
}

/**
 * Both name the same file (case-insensitively, for case-insensitive file systems), one is a rotated
 * backup of the other (`x.log.3`, `x.log.3.gz`), or one would need the other as a directory.
 */
function filesCollide(a: string, b: string): boolean {
  const [left, right] = [a.toLowerCase(), b.toLowerCase()];
  const backupOf = (file: string, base: string): boolean =>
    file.startsWith(`${base}.`) && /^\d+(\.gz)?$/.test(file.slice(base.length + 1));
  const inside = (file: string, base: string): boolean => file.startsWith(`${base}/`);
  return left === right || backupOf(left, right) || backupOf(right, left) || inside(left, right) || inside(right, left);
}

/** Cross-entry rules: unique targets, and no custom file shadowing a default sink's file (enabled or not). */
export function checkCustomSinkUniqueness(sinks: readonly CustomSinkConfig[]): void {
  const files: string[] = [];
  const endpoints = new Set<string>();
  sinks.forEach((sink, index) => {
    const at = `custom_sinks[${index}]`;
    if (sink.sink_type === 'file') {
      const clash = DEFAULT_FILE_NAMES.find((name) => filesCollide(sink.file_path, name));
      if (clash) {
        invalidSinkConfig(`${at}: file_path '${sink.file_path}' collides with the default sink '${clash}'`);
      }
      const duplicate = files.find((other) => filesCollide(sink.file_path, other));
      if (duplicate !== undefined) {
        invalidSinkConfig(`${at}: file_path '${sink.file_path}' collides with another custom sink ('${duplicate}')`);
      }
      files.push(sink.file_path);
      return;
    }
    const key =
      sink.sink_type === 'syslog' ? `syslog ${sink.syslog_host}:${sink.syslog_port}` : `http ${sink.http_url}`;
    if (endpoints.has(key)) {
      invalidSinkConfig(`${at}: duplicate ${key}`);
    }
    endpoints.add(key);
  });
}
