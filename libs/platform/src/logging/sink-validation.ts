import { checkCustomSinkUniqueness, parseCustomSink } from './custom-sink-validation';
import { CONSOLE_SINK_ID, type CustomSinkConfig, DEFAULT_SINKS, type SinkOverride } from './sink-config';
import {
  invalidSinkConfig,
  readBoolean,
  readLevel,
  readRotation,
  readRoutingPrefixes,
  rejectUnknownKeys,
  requireObject,
} from './sink-validation-fields';

export interface ValidatedSinkSettings {
  sinkOverrides: Record<string, SinkOverride>;
  customSinks: CustomSinkConfig[];
}

const OVERRIDE_FIELDS = ['enabled', 'level', 'json_format', 'rotation', 'routing_prefixes'] as const;
const CONSOLE_OVERRIDE_FIELDS = ['enabled', 'level', 'json_format'] as const;
const MAX_CUSTOM_SINKS = 32;

/**
 * Validates the `sink_overrides` and `custom_sinks` settings (parsed values or their JSON text;
 * null, undefined and blank text mean "none") and returns them normalised with defaults applied.
 * @throws AppError SinkConfigValidationError (8015) naming the offending entry.
 */
export function validateSinkSettings(sinkOverrides: unknown, customSinks: unknown): ValidatedSinkSettings {
  return {
    sinkOverrides: validateOverrides(parseJsonSetting(sinkOverrides, 'sink_overrides')),
    customSinks: validateCustomSinks(parseJsonSetting(customSinks, 'custom_sinks')),
  };
}

function parseJsonSetting(value: unknown, name: string): unknown {
  if (typeof value !== 'string') {
    return value ?? undefined;
  }
  if (value.trim() === '') {
    return undefined;
  }
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return invalidSinkConfig(`${name} is not valid JSON`);
  }
}

function validateOverrides(value: unknown): Record<string, SinkOverride> {
  if (value === undefined) {
    return {};
  }
  const raw = requireObject(value, 'sink_overrides');
  const result: Record<string, SinkOverride> = {};
  for (const [key, entry] of Object.entries(raw)) {
    const definition = DEFAULT_SINKS.find((sink) => sink.identifier === key);
    if (!definition) {
      invalidSinkConfig(
        `sink_overrides: unknown sink '${key}'; expected ${CONSOLE_SINK_ID} or one of ${DEFAULT_SINKS.filter(
          (s) => s.sink_type === 'file',
        )
          .map((s) => s.identifier)
          .join(', ')}`,
      );
    }
    result[key] = validateOverride(key, entry);
  }
  return result;
}

function validateOverride(key: string, value: unknown): SinkOverride {
  const at = `sink_overrides['${key}']`;
  const raw = requireObject(value, at);
  const isConsole = key === CONSOLE_SINK_ID;
  rejectUnknownKeys(raw, isConsole ? CONSOLE_OVERRIDE_FIELDS : OVERRIDE_FIELDS, at, (field) =>
    isConsole && (OVERRIDE_FIELDS as readonly string[]).includes(field)
      ? `field '${field}' does not apply to the console sink`
      : undefined,
  );
  const enabled = readBoolean(raw, 'enabled', at);
  if (isConsole && enabled === false) {
    invalidSinkConfig(`${at}: the console sink cannot be disabled`);
  }
  const fields: Record<keyof SinkOverride, unknown> = {
    enabled,
    level: readLevel(raw, 'level', at),
    json_format: readBoolean(raw, 'json_format', at),
    rotation: readRotation(raw, 'rotation', at),
    routing_prefixes: readRoutingPrefixes(raw, 'routing_prefixes', at),
  };
  // Only keys actually given are kept, so an override never masks a default with `undefined`.
  const given: SinkOverride = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
  return given;
}

function validateCustomSinks(value: unknown): CustomSinkConfig[] {
  if (value === undefined) {
    return [];
  }
  if (!Array.isArray(value)) {
    invalidSinkConfig('custom_sinks must be a JSON array');
  }
  if (value.length > MAX_CUSTOM_SINKS) {
    invalidSinkConfig(`custom_sinks may hold at most ${MAX_CUSTOM_SINKS} sinks`);
  }
  const sinks = (value as unknown[]).map((entry, index) => parseCustomSink(entry, `custom_sinks[${index}]`));
  checkCustomSinkUniqueness(sinks);
  return sinks;
}
