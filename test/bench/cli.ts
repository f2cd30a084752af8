// Command-line start-up (part of `npm run bench`; alone: BENCH_ONLY=cli): the time from launching the
// built `synthorg` binary (`node dist/apps/cli/src/main.js`) to its first request arriving at the
// server, for a list (`tasks list --json`, a profile and a token) and for `status`. The server is a
// loopback stub that answers at once, so what is measured is Node's start, loading the command tree
// and the typed client, reading the profile and opening the connection. Prints the median and the
// slowest of BENCH_CLI_ROUNDS (15) launches of each beside the goal (< 150 ms), and, as the floor on
// this machine at this moment, a bare `node -e "fetch(…)"` launched the same way (on a loaded machine
// both grow; the difference is what the command line adds).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';

import { median } from './harness';

const ROUNDS = Math.max(1, Number(process.env.BENCH_CLI_ROUNDS ?? 15) || 15);
const GOAL_MS = 150;
const CLI = resolve(__dirname, '..', '..', 'apps/cli/src/main.js');

const PAGE = JSON.stringify({
  data: [],
  error: null,
  error_detail: null,
  success: true,
  pagination: { total: 0, offset: 0, limit: 50 },
});

/** A stub API: notes when the first request of a launch arrives, answers an empty page. */
function stub(): Promise<{ server: Server; port: number; firstRequest: () => Promise<number> }> {
  let waiting: ((at: number) => void) | null = null;
  const server = createServer((req, res) => {
    const at = performance.now();
    waiting?.(at);
    waiting = null;
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' }).end(PAGE);
  });
  return new Promise((done) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      done({
        server,
        port: typeof address === 'object' && address ? address.port : 0,
        firstRequest: () => new Promise<number>((arrived) => (waiting = arrived)),
      });
    }),
  );
}

async function launch(args: string[], env: NodeJS.ProcessEnv, firstRequest: () => Promise<number>): Promise<number> {
  const arrived = firstRequest();
  const started = performance.now();
  const child = spawn(process.execPath, args, { env, stdio: 'ignore' });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const timeout = new Promise<never>((_, fail) =>
    setTimeout(() => fail(new Error('no request within 10 s')), 10_000).unref(),
  );
  const at = await Promise.race([arrived, timeout]);
  await exited;
  return at - started;
}

export async function runCliBench(): Promise<void> {
  const out = (line: string) => process.stdout.write(line + '\n');
  const home = mkdtempSync(join(tmpdir(), 'synthorg-bench-cli-'));
  const { server, port, firstRequest } = await stub();
  try {
    const url = `http://127.0.0.1:${port}`;
    mkdirSync(join(home, 'synthorg'), { mode: 0o700 });
    writeFileSync(
      join(home, 'synthorg', 'config.json'),
      JSON.stringify({ current: 'default', profiles: { default: { url, token: 'bench-token', username: 'ceo' } } }),
      { mode: 0o600 },
    );
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: home, NO_COLOR: '1' };
    const cases: [string, string[]][] = [
      ['synthorg tasks list --json', [CLI, 'tasks', 'list', '--json']],
      ['synthorg status', [CLI, 'status']],
      ['bare node, one fetch (floor)', ['-e', `fetch('${url}/api/v1/health').then((r) => r.text())`]],
    ];
    await launch(cases[0][1], env, firstRequest); // warm-up: the file cache
    const results = new Map<string, number[]>(cases.map(([name]) => [name, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, args] of cases) {
        results.get(name)?.push(await launch(args, env, firstRequest));
      }
    }
    out(`\nCommand-line start-up: launch of the built binary -> its first request (${ROUNDS} launches each)`);
    const floor = median(results.get(cases[2][0]) ?? []);
    for (const [name, values] of results) {
      const mid = median(values);
      const goal =
        name === cases[2][0]
          ? ''
          : `  (goal: median < ${GOAL_MS} ms ${mid < GOAL_MS ? '✓ met' : '✗ NOT met'}; ` +
            `${(mid - floor).toFixed(0)} ms above the floor)`;
      out(
        `${name.padEnd(30)} median ${mid.toFixed(0).padStart(4)} ms, slowest ${Math.max(...values)
          .toFixed(0)
          .padStart(4)} ms${goal}`,
      );
    }
    out(`(load average ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores)`);
  } finally {
    await new Promise((done) => server.close(done));
    rmSync(home, { recursive: true, force: true });
  }
}
