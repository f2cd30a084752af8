// The git spawn benchmark (part of `npm run bench`; alone: BENCH_ONLY=git). The engine runs about
// ten git commands for a task that writes files. A fork copies the parent's page tables, so a
// command started by a process that holds as much memory as the service costs more than one started
// by a small process. This bench holds BENCH_GIT_RSS_MB (default 230, the service's resident size
// once started; see hold() for its shape) in this process, then runs `git status` in a small repository through the engine's
// GitRunner, and the same command as an agent's `run_command` through the subprocess sandbox (a
// shell in a process group of its own): started from this process, and through the spawn helper (one
// small process). It prints the wall time and this process's CPU time per command, medians over
// BENCH_ROUNDS rounds.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { SpawnHelper } from '@app/platform';

import { GitRunner } from '../../apps/api/src/modules/engine/workspace/git-runner';
import { SubprocessSandbox } from '../../apps/api/src/modules/security/sandbox/subprocess-sandbox';
import { median } from './harness';

const RSS_MB = Number(process.env.BENCH_GIT_RSS_MB ?? 230);
const COMMANDS = Number(process.env.BENCH_GIT_COMMANDS ?? 60);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

/**
 * Grows this process's resident memory to about `mb` megabytes: half in 1 MB buffers, half in small
 * objects. How much a fork costs depends on the memory's shape as well as its size, so the figure is
 * an illustration of the effect; the engine bench's CPU per task shows it in the service itself.
 */
function hold(mb: number): unknown[] {
  const held: unknown[] = [];
  const rss = () => process.memoryUsage().rss / 1e6;
  const start = rss();
  while (rss() < start + (mb - start) / 2) {
    held.push(Buffer.alloc(1 << 20, 1));
  }
  while (rss() < mb) {
    for (let i = 0; i < 10_000; i++) {
      held.push({ id: i, name: `object ${i}` });
    }
  }
  return held;
}

/** This process's page tables (what a fork copies), from /proc; null off Linux. */
function pageTablesKb(): number | null {
  try {
    const match = /^VmPTE:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

async function timed(command: () => Promise<unknown>): Promise<{ wallMs: number; cpuMs: number }> {
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  for (let i = 0; i < COMMANDS; i++) {
    await command();
  }
  const used = process.cpuUsage(cpu);
  return {
    wallMs: Number(process.hrtime.bigint() - start) / 1e6 / COMMANDS,
    cpuMs: (used.user + used.system) / 1000 / COMMANDS,
  };
}

/**
 * Runs the measurement in a process of its own: the bench's process already holds whatever the
 * parts before it left, and the figure depends on the starting process's size.
 */
export async function runGitBench(): Promise<void> {
  const child = spawn(process.execPath, [__filename], { stdio: ['ignore', 'inherit', 'inherit'] });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) {
    throw new Error(`the git bench exited with ${code}`);
  }
}

async function measure(): Promise<void> {
  const held = hold(RSS_MB);
  const dir = mkdtempSync(join(tmpdir(), 'synthorg-bench-git-'));
  const helper = new SpawnHelper();
  try {
    const direct = new GitRunner({ helper: null });
    const viaHelper = new GitRunner({ helper });
    await direct.run(['init', '-q', '-b', 'main'], { cwd: dir });
    for (let i = 0; i < 50; i++) {
      writeFileSync(join(dir, `file-${i}.txt`), `line ${i}\n`);
    }
    await direct.run(['add', '-A'], { cwd: dir });
    await direct.run(['commit', '-q', '-m', 'Fifty files'], { cwd: dir });
    const status = (git: GitRunner) => () => git.run(['status', '--porcelain'], { cwd: dir });
    const sandboxed = (sandbox: SubprocessSandbox) => async () => {
      const result = await sandbox.run({ command: 'git status --porcelain', cwd: dir, timeoutSeconds: 30 });
      if (result.exitCode !== 0) {
        throw new Error(`the sandboxed command failed: ${result.output}`);
      }
    };
    const kinds = [
      { name: 'git, from this process', run: status(direct) },
      { name: 'git, through the spawn helper', run: status(viaHelper) },
      { name: 'sandbox, from this process', run: sandboxed(new SubprocessSandbox(undefined, null)) },
      { name: 'sandbox, through the helper', run: sandboxed(new SubprocessSandbox(undefined, helper)) },
    ];
    const samples = new Map(kinds.map((k) => [k.name, [] as Array<{ wallMs: number; cpuMs: number }>]));
    for (const kind of kinds) {
      await timed(kind.run); // warm-up: the helper starts, caches fill
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const kind of kinds) {
        samples.get(kind.name)?.push(await timed(kind.run));
      }
    }
    const rss = Math.round(process.memoryUsage().rss / 1e6);
    const tables = pageTablesKb();
    const out = (line: string) => process.stdout.write(line + '\n');
    out(
      `\nCommands (\`git status\`, by GitRunner and by the subprocess sandbox, ${COMMANDS} per round, ${ROUNDS} rounds, medians) started by a process of ` +
        `${rss} MB resident${tables === null ? '' : `, ${tables} kB of page tables`}`,
    );
    out('started                       wall ms/command   CPU ms/command of the starting process');
    for (const kind of kinds) {
      const s = samples.get(kind.name) ?? [];
      out(
        `${kind.name.padEnd(29)} ${median(s.map((x) => x.wallMs))
          .toFixed(2)
          .padStart(15)}   ` +
          `${median(s.map((x) => x.cpuMs))
            .toFixed(2)
            .padStart(10)}`,
      );
    }
  } finally {
    helper.close();
    rmSync(dir, { recursive: true, force: true });
    held.length = 0;
  }
}

if (require.main === module) {
  void measure().catch((error: unknown) => {
    process.stderr.write(`git bench failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
