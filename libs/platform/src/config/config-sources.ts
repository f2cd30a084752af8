import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

import { parse as parseYaml } from 'yaml';

/**
 * The raw tiers the typed configuration is built from: environment first, then a YAML file under
 * `config/`, then code defaults (applied by the schema). The runtime settings registry adds the
 * database tier above these later.
 */
export interface ConfigSources {
  env: NodeJS.ProcessEnv;
  yaml: Record<string, unknown>;
  yamlPath: string | null;
  /** Set when the YAML file exists but cannot be parsed; the config build reports it. */
  yamlError: string | null;
  cwd: string;
  /**
   * Stored values of the settings registry (`namespace.key` → text), read from the database before
   * the application is built; they win over the environment and YAML for the fields they back.
   */
  stored?: ReadonlyMap<string, string>;
}

export const DEFAULT_CONFIG_FILE = 'config/synthorg.yaml';

export function readConfigSources(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): ConfigSources {
  const explicit = env.SYNTHORG_CONFIG_FILE;
  const yamlPath = resolve(cwd, explicit && explicit.length > 0 ? explicit : DEFAULT_CONFIG_FILE);
  if (!existsSync(yamlPath)) {
    return {
      env,
      yaml: {},
      yamlPath: null,
      yamlError: explicit ? `SYNTHORG_CONFIG_FILE: file not found: ${explicit}` : null,
      cwd,
    };
  }
  try {
    const parsed: unknown = parseYaml(readFileSync(yamlPath, 'utf8'));
    if (parsed === null || parsed === undefined) {
      return { env, yaml: {}, yamlPath, yamlError: null, cwd };
    }
    if (typeof parsed !== 'object' || Array.isArray(parsed)) {
      return { env, yaml: {}, yamlPath, yamlError: `${yamlPath}: the top level must be a mapping`, cwd };
    }
    return { env, yaml: parsed as Record<string, unknown>, yamlPath, yamlError: null, cwd };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { env, yaml: {}, yamlPath, yamlError: `${yamlPath}: ${message}`, cwd };
  }
}

/** Which persistence backend the sources select, without validating anything else (used by the preflight). */
export function resolveBackendHint(sources: ConfigSources): 'sqlite' | 'postgres' | null {
  const fromEnv = sources.env.SYNTHORG_DATABASE_URL;
  if (fromEnv !== undefined && fromEnv.trim() !== '') {
    return looksLikePostgresUrl(fromEnv) ? 'postgres' : null;
  }
  if (sources.yamlError) {
    return null;
  }
  const persistence = sources.yaml.persistence;
  if (persistence && typeof persistence === 'object' && 'database_url' in persistence) {
    const url = (persistence as Record<string, unknown>).database_url;
    if (typeof url === 'string' && url.trim() !== '') {
      return looksLikePostgresUrl(url) ? 'postgres' : null;
    }
  }
  return 'sqlite';
}

export function looksLikePostgresUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'postgres:' || url.protocol === 'postgresql:') && url.hostname !== '';
  } catch {
    return false;
  }
}
