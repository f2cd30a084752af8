export { createLogging } from './logging.factory';
export type { ConsoleOptions, LoggingOptions, LoggingRuntime, PrebuiltRecordLogger } from './logging.types';
export type { LogLevelName, WireLevel } from './levels';
export {
  CONSOLE_SINK_ID,
  type CustomSinkConfig,
  DEFAULT_ROTATION,
  DEFAULT_SINKS,
  type DefaultSinkDefinition,
  type FileSinkConfig,
  type HttpSinkConfig,
  type RotationConfig,
  type RotationStrategy,
  type SinkInfo,
  type SinkOverride,
  type SinkType,
  type SyslogFacility,
  type SyslogSinkConfig,
} from './sink-config';
export { type ValidatedSinkSettings, validateSinkSettings } from './sink-validation';
export { isSensitiveKey, redact, REDACTED } from './redaction';
export { SINK_WARNING_CODE } from './sink-diagnostics';
export { settleWithin } from './sink-destination';
export { LogThrottle } from './log-throttle';
export * from './observability.settings';
