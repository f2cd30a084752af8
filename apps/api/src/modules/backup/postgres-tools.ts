import { spawn } from 'node:child_process';

import { BackupComponentUnavailableError } from './backup-component.errors';

/** What a finished client tool run answered. */
interface ToolRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

const OUTPUT_LIMIT = 64 * 1024;

/** Runs a PostgreSQL client tool without a shell; the URL travels as an argument, never logged. */
export function runTool(binary: string, args: readonly string[]): Promise<ToolRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout = (stdout + chunk.toString('utf8')).slice(-OUTPUT_LIMIT);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-OUTPUT_LIMIT);
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The major version a `--version` line names (`pg_dump (PostgreSQL) 15.20` → 15), or null. */
export function majorVersionOf(output: string): number | null {
  const match = /(\d+)(?:\.\d+)?/.exec(output.replace(/^[^)]*\)/, ''));
  return match ? Number(match[1]) : null;
}

/**
 * Checks that a client tool can work with the server: pg_dump and pg_restore refuse servers of a
 * newer major version, so this fails early with the versions named instead of half-way through.
 */
export async function assertToolFitsServer(binary: string, name: string, serverMajor: number): Promise<void> {
  const run = await runTool(binary, ['--version']).catch((error: unknown) => {
    throw new BackupComponentUnavailableError(
      `${name} could not be started: ${error instanceof Error ? error.message : String(error)}`,
    );
  });
  const major = majorVersionOf(run.stdout);
  if (major !== null && major < serverMajor) {
    throw new BackupComponentUnavailableError(
      `${name} ${major} is older than the PostgreSQL server (${serverMajor}); install postgresql-client ${serverMajor} or newer`,
    );
  }
}

/** The tool's failure as one line: its exit code and the last line of its error output. */
export function toolFailure(name: string, run: ToolRun): string {
  const lines = run.stderr.trim().split('\n').filter(Boolean);
  return `${name} exited with code ${run.code ?? 'none'}${lines.length ? `: ${lines[lines.length - 1]}` : ''}`;
}
