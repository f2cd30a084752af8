// First: the compile cache applies to the modules loaded after it.
import './compile-cache';
// Second: tracing (when configured) instruments the database driver before it is loaded.
import './telemetry/tracing';
import 'reflect-metadata';

import { BinaryPreflightError, ConfigError } from '@app/platform';

import { startServer } from './bootstrap';

async function main(): Promise<void> {
  try {
    await startServer();
  } catch (error) {
    // Startup failures are operator-facing: one clear message on stderr, then a non-zero exit.
    if (error instanceof BinaryPreflightError || error instanceof ConfigError) {
      process.stderr.write(`synthorg: startup aborted: ${error.message}\n`);
    } else {
      process.stderr.write(
        `synthorg: startup failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
    }
    process.exit(1);
  }
}

void main();
