import 'reflect-metadata';

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { createApp, stopApp } from '../bootstrap';

import { buildOpenApiDocument } from './openapi';

/**
 * Writes the committed openapi.json from the code, or with --check fails when it differs (CI drift check).
 * The app is built in memory: no port, no files besides a throwaway log directory.
 */
async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const target = resolve(process.cwd(), 'openapi.json');
  const scratch = mkdtempSync(join(tmpdir(), 'synthorg-openapi-'));
  const created = await createApp({
    skipPreflight: true,
    env: {
      SYNTHORG_DB_PATH: ':memory:',
      SYNTHORG_JWT_SECRET: 'openapi-generation-only-secret-not-used-for-anything',
      SYNTHORG_LOG_DIR: scratch,
      SYNTHORG_LOG_LEVEL: 'error',
    },
    // A scratch working directory: no local YAML file can change the generated document.
    cwd: scratch,
    consoleDestination: process.stderr,
  });
  try {
    await created.app.init();
    const text = JSON.stringify(buildOpenApiDocument(created.app), null, 2) + '\n';
    if (check) {
      let current = '';
      try {
        current = readFileSync(target, 'utf8');
      } catch {
        current = '';
      }
      if (current !== text) {
        process.stderr.write('openapi.json is out of date: run `npm run build && npm run openapi` and commit it\n');
        process.exitCode = 1;
      } else {
        process.stdout.write('openapi.json is up to date\n');
      }
    } else {
      writeFileSync(target, text);
      process.stdout.write(`wrote ${target}\n`);
    }
  } finally {
    await stopApp(created);
    rmSync(scratch, { recursive: true, force: true });
  }
}

void main();
