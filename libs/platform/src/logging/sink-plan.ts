import { type LogLevelName, toWireLevel } from './levels';
import {
  type CustomSinkConfig,
  customSinkIdentifier,
  DEFAULT_SINKS,
  type DefaultSinkDefinition,
  type HttpSinkConfig,
  type RotationConfig,
  type SinkInfo,
  type SinkOverride,
  type SyslogSinkConfig,
} from './sink-config';

export type SinkTarget =
  | { kind: 'console' }
  | { kind: 'file'; relativePath: string; rotation: RotationConfig }
  | { kind: 'syslog'; config: SyslogSinkConfig }
  | { kind: 'http'; config: HttpSinkConfig };

/** One sink after defaults, overrides and custom entries have been merged. */
export interface PlannedSink {
  info: SinkInfo;
  level: LogLevelName;
  target: SinkTarget;
}

/** Default sinks (with overrides applied, disabled ones included) followed by custom sinks, in order. */
export function planSinks(
  overrides: Record<string, SinkOverride>,
  customSinks: readonly CustomSinkConfig[],
): PlannedSink[] {
  return [
    ...DEFAULT_SINKS.map((definition) => planDefault(definition, overrides[definition.identifier] ?? {})),
    ...customSinks.map(planCustom),
  ];
}

function planDefault(definition: DefaultSinkDefinition, override: SinkOverride): PlannedSink {
  const isConsole = definition.sink_type === 'console';
  const level = override.level ?? definition.level;
  const rotation = definition.rotation === null ? null : { ...(override.rotation ?? definition.rotation) };
  return {
    level,
    info: {
      identifier: definition.identifier,
      sink_type: definition.sink_type,
      level: toWireLevel(level),
      json_format: override.json_format ?? definition.json_format,
      rotation,
      is_default: true,
      // Validation already refuses to disable the console; this keeps the invariant even for unvalidated input.
      enabled: isConsole || override.enabled !== false,
      routing_prefixes: [...(override.routing_prefixes ?? definition.routing_prefixes)],
    },
    target: rotation ? { kind: 'file', relativePath: definition.identifier, rotation } : { kind: 'console' },
  };
}

function planCustom(sink: CustomSinkConfig): PlannedSink {
  const base = {
    identifier: customSinkIdentifier(sink),
    sink_type: sink.sink_type,
    level: toWireLevel(sink.level),
    is_default: false,
    enabled: true,
  };
  switch (sink.sink_type) {
    case 'file':
      return {
        level: sink.level,
        info: {
          ...base,
          json_format: sink.json_format,
          rotation: { ...sink.rotation },
          routing_prefixes: [...sink.routing_prefixes],
        },
        target: { kind: 'file', relativePath: sink.file_path, rotation: { ...sink.rotation } },
      };
    case 'syslog':
      return {
        level: sink.level,
        info: { ...base, json_format: true, rotation: null, routing_prefixes: [] },
        target: { kind: 'syslog', config: sink },
      };
    case 'http':
      return {
        level: sink.level,
        info: { ...base, json_format: true, rotation: null, routing_prefixes: [] },
        target: { kind: 'http', config: sink },
      };
  }
}
