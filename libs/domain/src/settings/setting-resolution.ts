import {
  normaliseSettingValue,
  type SettingDefinition,
  settingValueProblem,
  type SettingSource,
} from './setting-definition';

/** The tiers below the database: the process environment and the parsed YAML file. */
export interface SettingBootSources {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly yaml: Readonly<Record<string, unknown>>;
}

/** A resolved value and the tier it came from; `problems` lists lower-tier values skipped as invalid. */
export interface ResolvedSetting {
  value: string | null;
  source: SettingSource;
  problems: string[];
}

/** `SYNTHORG_<NAMESPACE>_<KEY>`, upper case. */
export function settingEnvName(definition: Pick<SettingDefinition, 'namespace' | 'key'>): string {
  return `SYNTHORG_${definition.namespace}_${definition.key}`.toUpperCase();
}

/** The YAML path of a setting: its declared one, else `<namespace>.<key>`. */
export function settingYamlPath(definition: SettingDefinition): string[] {
  return (definition.yamlPath ?? `${definition.namespace}.${definition.key}`).split('.');
}

/** The value at a path of the YAML tree as setting text (objects and arrays as JSON), or undefined. */
export function yamlSettingText(yaml: Readonly<Record<string, unknown>>, path: readonly string[]): string | undefined {
  let node: unknown = yaml;
  for (const segment of path) {
    if (node === null || typeof node !== 'object' || Array.isArray(node)) {
      return undefined;
    }
    node = (node as Record<string, unknown>)[segment];
  }
  if (node === undefined || node === null) {
    return undefined;
  }
  if (typeof node === 'string' || typeof node === 'number' || typeof node === 'boolean') {
    return String(node);
  }
  return typeof node === 'object' ? JSON.stringify(node) : undefined;
}

/**
 * Resolution below the database: environment (`SYNTHORG_<NAMESPACE>_<KEY>`, then the declared
 * aliases), then YAML, then the code default. A value that breaks the definition's rules is skipped
 * (and reported in `problems`), so one bad variable cannot take a setting out of its range.
 */
export function resolveBootSetting(definition: SettingDefinition, sources: SettingBootSources): ResolvedSetting {
  const problems: string[] = [];
  const accept = (raw: string | undefined, origin: string): string | null => {
    if (raw === undefined || raw.trim() === '') {
      return null;
    }
    const problem = settingValueProblem(definition, raw);
    if (problem) {
      problems.push(`${origin}: ${problem.message}`);
      return null;
    }
    return normaliseSettingValue(definition, raw);
  };
  for (const name of [settingEnvName(definition), ...definition.envAliases]) {
    const value = accept(sources.env[name], name);
    if (value !== null) {
      return { value, source: 'env', problems };
    }
  }
  const path = settingYamlPath(definition);
  const yaml = accept(yamlSettingText(sources.yaml, path), `yaml ${path.join('.')}`);
  if (yaml !== null) {
    return { value: yaml, source: 'yaml', problems };
  }
  return { value: definition.default, source: 'default', problems };
}

/** Full resolution: a stored (database) value wins; otherwise the boot tiers decide. */
export function resolveSetting(
  definition: SettingDefinition,
  stored: string | null,
  sources: SettingBootSources,
): ResolvedSetting {
  if (stored !== null) {
    return { value: stored, source: 'db', problems: [] };
  }
  return resolveBootSetting(definition, sources);
}
