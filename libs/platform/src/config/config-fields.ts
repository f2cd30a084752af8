import { z } from 'zod';

import type { ConfigSources } from './config-sources';

// The typed fields of the boot configuration and the tiers they are read from.

export const bool = z
  .string()
  .trim()
  .toLowerCase()
  .refine((v) => ['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'].includes(v), 'expected a boolean (true/false)')
  .transform((v) => ['true', '1', 'yes', 'on'].includes(v));
export const autoOrBool = z
  .string()
  .trim()
  .toLowerCase()
  .refine((v) => v === 'auto' || bool.safeParse(v).success, 'expected auto, true or false')
  .transform((v): 'auto' | boolean => (v === 'auto' ? 'auto' : bool.parse(v)));
export const port = z.coerce.number().int('expected an integer').min(0).max(65535);
export const nonEmpty = z.string().trim().min(1, 'must not be empty');

export interface Field<T> {
  /**
   * The restart-required registry setting (`namespace.key`) this field is: its stored value wins,
   * then its variable `SYNTHORG_<NAMESPACE>_<KEY>`, then `env`, then YAML.
   */
  setting?: string;
  env?: string;
  yaml?: readonly string[];
  schema: z.ZodType<T>;
  fallback: T;
}

export function readYaml(yaml: Record<string, unknown>, path: readonly string[]): unknown {
  let node: unknown = yaml;
  for (const key of path) {
    if (node === null || typeof node !== 'object') {
      return undefined;
    }
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

export function pick<T>(sources: ConfigSources, field: Field<T>, problems: string[]): T {
  const stored = field.setting === undefined ? undefined : sources.stored?.get(field.setting);
  if (stored !== undefined) {
    // Validated when it was written; one that no longer parses (an older release's) is skipped.
    const parsed = field.schema.safeParse(stored);
    if (parsed.success) {
      return parsed.data;
    }
  }
  for (const name of envNames(field)) {
    const envValue = sources.env[name];
    if (envValue !== undefined && envValue !== '') {
      const parsed = field.schema.safeParse(envValue);
      if (parsed.success) {
        return parsed.data;
      }
      problems.push(`${name}=${JSON.stringify(envValue)}: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
      return field.fallback;
    }
  }
  const yamlValue = field.yaml ? readYaml(sources.yaml, field.yaml) : undefined;
  if (field.yaml && yamlValue !== undefined && yamlValue !== null) {
    const parsed = field.schema.safeParse(
      typeof yamlValue === 'string' || typeof yamlValue === 'number' || typeof yamlValue === 'boolean'
        ? String(yamlValue)
        : yamlValue,
    );
    if (parsed.success) {
      return parsed.data;
    }
    problems.push(
      `${sources.yamlPath ?? 'config'}: ${field.yaml.join('.')}: ${parsed.error.issues[0]?.message ?? 'invalid'}`,
    );
  }
  return field.fallback;
}

/** The registry's variable name of a setting-backed field first, then the field's own. */
function envNames(field: Field<unknown>): string[] {
  const names = field.setting ? [`SYNTHORG_${field.setting.replace('.', '_').toUpperCase()}`] : [];
  return field.env ? [...names, field.env] : names;
}

/**
 * A JSON-valued setting read at boot (the sink settings): stored text, then its variable, then the
 * YAML value as it is (validated by the caller).
 */
export function jsonSetting(
  sources: ConfigSources,
  setting: string,
  yaml: readonly string[],
  fallback: unknown,
): unknown {
  const parse = (text: string | undefined): unknown => {
    if (text === undefined || text.trim() === '') {
      return undefined;
    }
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return undefined;
    }
  };
  return (
    parse(sources.stored?.get(setting)) ??
    parse(sources.env[`SYNTHORG_${setting.replace('.', '_').toUpperCase()}`]) ??
    readYaml(sources.yaml, yaml) ??
    fallback
  );
}
