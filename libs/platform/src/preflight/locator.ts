import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { delimiter, isAbsolute, join } from 'node:path';
import type { BinaryLocator } from './types';

/**
 * Finds `binary` on the PATH of `env` (default process.env): the first entry holding an executable regular file.
 * Empty and relative PATH entries are skipped: they resolve against the working directory, and startup must
 * not depend on where the service happened to be launched from.
 */
export function pathLocator(env: NodeJS.ProcessEnv = process.env): BinaryLocator {
  return async (binary) => {
    const pathValue = readPath(env);
    if (pathValue === undefined || pathValue === '') {
      return null;
    }
    const names = candidateNames(binary, env);
    for (const dir of pathValue.split(delimiter)) {
      if (dir === '' || !isAbsolute(dir)) {
        continue;
      }
      for (const name of names) {
        const candidate = join(dir, name);
        if (await isExecutableFile(candidate)) {
          return candidate;
        }
      }
    }
    return null;
  };
}

function readPath(env: NodeJS.ProcessEnv): string | undefined {
  if (env.PATH !== undefined) {
    return env.PATH;
  }
  // Windows environments spell it "Path"; a plain object copy of process.env loses the case-insensitivity.
  const key = Object.keys(env).find((k) => k.toUpperCase() === 'PATH');
  return key === undefined ? undefined : env[key];
}

function candidateNames(binary: string, env: NodeJS.ProcessEnv): string[] {
  if (process.platform !== 'win32') {
    return [binary];
  }
  const extensions = (env.PATHEXT ?? '.COM;.EXE;.BAT;.CMD').split(';').filter((ext) => ext !== '');
  return [binary, ...extensions.map((ext) => binary + ext.toLowerCase())];
}

async function isExecutableFile(candidate: string): Promise<boolean> {
  try {
    const info = await stat(candidate);
    if (!info.isFile()) {
      return false;
    }
    await access(candidate, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
