import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

import { z } from 'zod';

import type { Field } from './config-fields';
import type { ConfigSources } from './config-sources';

export const WEB_DIR_VARIABLE = 'SYNTHORG_WEB_DIR';

/**
 * Where a build puts the console: `dist/web` of the installation, found from this file (source or
 * compiled) upwards to the nearest folder with a package.json, so it does not depend on the working
 * directory.
 */
export function installedWebDir(from: string = __dirname): string {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) {
      return join(dir, 'dist', 'web');
    }
    if (dirname(dir) === dir) {
      return resolve('dist', 'web');
    }
  }
}

/**
 * The console's files (`SYNTHORG_WEB_DIR`, YAML `server.web_dir`), relative to the working directory;
 * an empty value turns the console off (null), no value means the installation's `dist/web`.
 */
export function webDirConfig(f: <T>(field: Field<T>) => T, sources: ConfigSources): string | null {
  // An empty variable means "off" here, where for every other field it means "not set".
  if (sources.env[WEB_DIR_VARIABLE]?.trim() === '') {
    return null;
  }
  const configured = f<string | null | undefined>({
    env: WEB_DIR_VARIABLE,
    yaml: ['server', 'web_dir'],
    schema: z
      .string()
      .trim()
      .transform((dir) => (dir === '' ? null : dir)),
    fallback: undefined,
  });
  if (configured === undefined) {
    return installedWebDir();
  }
  return configured === null ? null : resolve(sources.cwd, configured);
}
