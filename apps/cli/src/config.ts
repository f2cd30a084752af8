/**
 * Profiles: `$XDG_CONFIG_HOME/synthorg/config.json` (else `~/.config/synthorg/config.json`), readable
 * by its owner only (0600, in a 0700 directory), holding each profile's server URL and session token.
 * `SYNTHORG_URL` and `SYNTHORG_TOKEN` override the profile's values.
 */
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

import { CliError, ExitCode } from './errors';

export const DEFAULT_URL = 'http://127.0.0.1:8000';
export const DEFAULT_PROFILE = 'default';

export interface Profile {
  url?: string;
  token?: string;
  username?: string;
}

export interface ConfigFile {
  /** The profile used without `--profile` (the last one signed in). */
  current?: string;
  profiles: Record<string, Profile>;
}

export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  const base =
    env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME.startsWith('/') ? env.XDG_CONFIG_HOME : join(homedir(), '.config');
  return join(base, 'synthorg', 'config.json');
}

export function readConfig(path: string): ConfigFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return { profiles: {} };
    }
    throw new CliError(`cannot read ${path}: ${(error as Error).message}`, ExitCode.ApiError);
  }
  try {
    const parsed = JSON.parse(text) as Partial<ConfigFile>;
    const profiles = parsed.profiles && typeof parsed.profiles === 'object' ? parsed.profiles : {};
    return { ...(typeof parsed.current === 'string' ? { current: parsed.current } : {}), profiles };
  } catch {
    throw new CliError(`${path} is not valid JSON: fix or delete it`, ExitCode.ApiError);
  }
}

/** Writes the file atomically with mode 0600 (a temporary file beside it, then a rename). */
export function writeConfig(path: string, config: ConfigFile): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(config, null, 2) + '\n', { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, path);
}

export interface Resolved {
  profileName: string;
  url: string;
  token: string | null;
  /** Where each came from, for `status` and error hints. */
  tokenSource: 'env' | 'profile' | 'none';
}

/** The server and token a command uses: the environment over the profile over the defaults. */
export function resolveProfile(config: ConfigFile, requested: string | undefined, env: NodeJS.ProcessEnv): Resolved {
  const profileName = requested ?? env.SYNTHORG_PROFILE ?? config.current ?? DEFAULT_PROFILE;
  if (requested !== undefined && !/^[A-Za-z0-9_.-]{1,64}$/.test(requested)) {
    throw new CliError(`profile names are 1-64 letters, digits, '.', '_' or '-': ${requested}`, ExitCode.Usage);
  }
  const profile = config.profiles[profileName] ?? {};
  const envToken = env.SYNTHORG_TOKEN?.trim();
  const token = envToken || profile.token || null;
  return {
    profileName,
    url: normaliseUrl(env.SYNTHORG_URL?.trim() || profile.url || DEFAULT_URL),
    token,
    tokenSource: envToken ? 'env' : profile.token ? 'profile' : 'none',
  };
}

/** An http(s) origin with an optional path prefix, without a trailing slash. */
export function normaliseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new CliError(`not a URL: ${raw}`, ExitCode.Usage);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new CliError(`the server URL must be http or https: ${raw}`, ExitCode.Usage);
  }
  if (url.username || url.password) {
    throw new CliError('the server URL must not carry credentials', ExitCode.Usage);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}
