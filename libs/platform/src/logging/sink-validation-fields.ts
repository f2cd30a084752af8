import { AppError, ErrorCode } from '@app/domain';

import { type LogLevelName, LOG_LEVEL_NAMES, parseLogLevelName } from './levels';
import { DEFAULT_ROTATION, type RotationConfig } from './sink-config';

/** Throws the single error type every invalid sink configuration produces. */
export function invalidSinkConfig(message: string): never {
  throw new AppError(ErrorCode.SinkConfigValidationError, message);
}

export type PlainObject = Record<string, unknown>;

export function isPlainObject(value: unknown): value is PlainObject {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return false;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

export function requireObject(value: unknown, where: string): PlainObject {
  if (!isPlainObject(value)) {
    invalidSinkConfig(`${where} must be a JSON object`);
  }
  return value;
}

/** Rejects keys outside `allowed`; `describe` lets callers explain why a known-but-foreign key is invalid. */
export function rejectUnknownKeys(
  source: PlainObject,
  allowed: readonly string[],
  where: string,
  describe: (key: string) => string | undefined = () => undefined,
): void {
  for (const key of Object.keys(source)) {
    if (!allowed.includes(key)) {
      invalidSinkConfig(`${where}: ${describe(key) ?? `unknown field '${key}'`}`);
    }
  }
}

export function readBoolean(source: PlainObject, key: string, where: string): boolean | undefined {
  const value = source[key];
  if (value === undefined) {
    return undefined;
  }
  if (typeof value !== 'boolean') {
    invalidSinkConfig(`${where}: '${key}' must be a boolean`);
  }
  return value;
}

export function readLevel(source: PlainObject, key: string, where: string): LogLevelName | undefined {
  const value = source[key];
  if (value === undefined) {
    return undefined;
  }
  const level = parseLogLevelName(value);
  if (!level) {
    invalidSinkConfig(`${where}: '${key}' must be one of ${LOG_LEVEL_NAMES.join(', ')}`);
  }
  return level;
}

export interface NumberRange {
  min: number;
  max: number;
  integer: boolean;
}

export function readNumber(source: PlainObject, key: string, where: string, range: NumberRange): number | undefined {
  const value = source[key];
  if (value === undefined) {
    return undefined;
  }
  const valid =
    typeof value === 'number' &&
    Number.isFinite(value) &&
    (!range.integer || Number.isInteger(value)) &&
    value >= range.min &&
    value <= range.max;
  if (!valid) {
    const kind = range.integer ? 'an integer' : 'a number';
    invalidSinkConfig(`${where}: '${key}' must be ${kind} between ${range.min} and ${range.max}`);
  }
  return value;
}

export function readString(source: PlainObject, key: string, where: string): string | undefined {
  const value = source[key];
  if (value === undefined) {
    return undefined;
  }
  if (typeof value !== 'string' || value.trim() === '') {
    invalidSinkConfig(`${where}: '${key}' must be a non-empty string`);
  }
  return value.trim();
}

const ROUTING_PREFIX = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;
const MAX_ROUTING_PREFIXES = 64;

/** Logger-name prefixes; duplicates are dropped, order kept. */
export function readRoutingPrefixes(source: PlainObject, key: string, where: string): string[] | undefined {
  const value = source[key];
  if (value === undefined) {
    return undefined;
  }
  if (!Array.isArray(value) || value.length > MAX_ROUTING_PREFIXES) {
    invalidSinkConfig(`${where}: '${key}' must be an array of at most ${MAX_ROUTING_PREFIXES} logger-name prefixes`);
  }
  const prefixes: string[] = [];
  for (const entry of value) {
    if (typeof entry !== 'string' || entry.length > 200 || !ROUTING_PREFIX.test(entry)) {
      invalidSinkConfig(`${where}: '${key}' contains an invalid logger-name prefix ${JSON.stringify(entry)}`);
    }
    if (!prefixes.includes(entry)) {
      prefixes.push(entry);
    }
  }
  return prefixes;
}

const ROTATION_KEYS = ['strategy', 'max_bytes', 'backup_count', 'compress_rotated'] as const;

/** Bounds keep rotation meaningful: below 1 KiB a single record could exceed the limit. */
const MAX_BYTES_RANGE: NumberRange = { min: 1024, max: 1024 ** 4, integer: true };
const BACKUP_COUNT_RANGE: NumberRange = { min: 1, max: 100, integer: true };

/** Reads a (possibly partial) rotation object and completes it from `base`. */
export function readRotation(
  source: PlainObject,
  key: string,
  where: string,
  base = DEFAULT_ROTATION,
): RotationConfig | undefined {
  if (source[key] === undefined) {
    return undefined;
  }
  const at = `${where}.${key}`;
  const raw = requireObject(source[key], at);
  rejectUnknownKeys(raw, ROTATION_KEYS, at);
  const strategy = raw['strategy'] ?? base.strategy;
  if (strategy !== 'builtin' && strategy !== 'external') {
    invalidSinkConfig(`${at}: 'strategy' must be 'builtin' or 'external'`);
  }
  const rotation: RotationConfig = {
    strategy,
    max_bytes: readNumber(raw, 'max_bytes', at, MAX_BYTES_RANGE) ?? base.max_bytes,
    backup_count: readNumber(raw, 'backup_count', at, BACKUP_COUNT_RANGE) ?? base.backup_count,
    compress_rotated: readBoolean(raw, 'compress_rotated', at) ?? base.compress_rotated,
  };
  if (rotation.strategy === 'external' && rotation.compress_rotated) {
    invalidSinkConfig(`${at}: 'compress_rotated' requires strategy 'builtin' (external rotation is done by logrotate)`);
  }
  return rotation;
}
