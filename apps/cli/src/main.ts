#!/usr/bin/env node
// The `synthorg` command line (the package's bin): a thin client of the API. See docs/cli.md.
import { readFileSync } from 'node:fs';
import { enableCompileCache } from 'node:module';
import { join } from 'node:path';

// Start-up counts for a command line: V8's code cache (in the temporary directory) spares compiling
// the parser and the commands again on every run. The commands are loaded after it is on.
enableCompileCache();

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { runCli } = require('./program') as typeof import('./program');

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
