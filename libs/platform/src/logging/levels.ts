import type { Level } from 'pino';

/** Level names as they appear in settings (`root_log_level`, sink `level`). */
export type LogLevelName = 'debug' | 'info' | 'warning' | 'error' | 'critical';

/** Level labels written on the wire (JSON `level` field, SinkInfo). */
export type WireLevel = 'DEBUG' | 'INFO' | 'WARNING' | 'ERROR' | 'CRITICAL';

export const LOG_LEVEL_NAMES: readonly LogLevelName[] = ['debug', 'info', 'warning', 'error', 'critical'];

// Settings speak the Python/syslog vocabulary; pino has its own method names for the same severities.
const PINO_LEVEL_BY_NAME: Readonly<Record<LogLevelName, Level>> = {
  debug: 'debug',
  info: 'info',
  warning: 'warn',
  error: 'error',
  critical: 'fatal',
};

const VALUE_BY_NAME: Readonly<Record<LogLevelName, number>> = {
  debug: 20,
  info: 30,
  warning: 40,
  error: 50,
  critical: 60,
};

export function toPinoLevel(name: LogLevelName): Level {
  return PINO_LEVEL_BY_NAME[name];
}

/** Numeric pino value of a level; multistream compares these. */
export function levelValue(name: LogLevelName): number {
  return VALUE_BY_NAME[name];
}

export function toWireLevel(name: LogLevelName): WireLevel {
  return name.toUpperCase() as WireLevel;
}

/**
 * Wire label for a numeric pino level. `trace` has no counterpart in the settings vocabulary and
 * is folded into DEBUG; custom levels above fatal count as CRITICAL.
 */
export function wireLevelForValue(value: number): WireLevel {
  if (value <= 20) {
    return 'DEBUG';
  }
  if (value <= 30) {
    return 'INFO';
  }
  if (value <= 40) {
    return 'WARNING';
  }
  return value <= 50 ? 'ERROR' : 'CRITICAL';
}

/** Accepts a settings level name in any case; undefined for anything else. */
export function parseLogLevelName(value: unknown): LogLevelName | undefined {
  if (typeof value !== 'string') {
    return undefined;
  }
  const lowered = value.trim().toLowerCase();
  return (LOG_LEVEL_NAMES as readonly string[]).includes(lowered) ? (lowered as LogLevelName) : undefined;
}

/** The more severe of two levels. */
export function maxLevel(a: LogLevelName, b: LogLevelName): LogLevelName {
  return VALUE_BY_NAME[a] >= VALUE_BY_NAME[b] ? a : b;
}
