#!/usr/bin/env node
// The `synthorg` command line (the package's bin): a thin client of the API. See docs/cli.md.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { runCli } from './program';

function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(join(__dirname, '../../../../package.json'), 'utf8')) as { version?: string };
    return pkg.version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

const io = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env };
// A closed pipe (`synthorg tasks list | head`) ends the command quietly.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') {
    process.exit(0);
  }
});
runCli(process.argv.slice(2), io, packageVersion()).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`synthorg: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
