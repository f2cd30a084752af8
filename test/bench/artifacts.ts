// The artifacts benchmark (part of `npm run bench`; alone: BENCH_ONLY=artifacts). Starts the built
// service on a fresh SQLite database (the content path does not touch the database beyond one row)
// and moves one BENCH_ARTIFACT_MB (50) MB artifact: uploaded as a raw body, uploaded as a
// multipart/form-data file part, and downloaded, each streamed from a generator and into a hash on
// this side so nothing is held here either. For each transfer it prints the throughput and the
// service's peak RSS growth over its RSS before the transfer (sampled from /proc every 5 ms), the
// cold first transfer of each kind included, beside the goal: under 20 MB, which only streaming meets.
// The service runs twice (see NODE_FLAG_SETS). Env: BENCH_ARTIFACT_ROUNDS (3; medians), BENCH_ARTIFACT_MB.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createDataSource, TaskEntity } from '@app/persistence';
// Library files alone: the @app/testing index also loads the Jest helpers.
// eslint-disable-next-line no-restricted-imports
import { createTestDatabase, type TestDatabase } from '../../libs/testing/src/databases';
// eslint-disable-next-line no-restricted-imports
import { taskRow } from '../../libs/testing/src/task-rows';
import { median, releaseScratch, type RunningServer, SERVICE_NODE_FLAGS, startBenchService } from './harness';

const MB = 1024 * 1024;
const envInt = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback);
  return Number.isInteger(value) && value >= 1 ? value : fallback;
};
const SIZE = envInt('BENCH_ARTIFACT_MB', 50) * MB;
const ROUNDS = envInt('BENCH_ARTIFACT_ROUNDS', 3);
const RSS_GOAL_MB = 20;
/**
 * The service runs twice: with its production flags (SERVICE_NODE_FLAGS: a 16 MB semi-space), and
 * with a 1 MB young-generation semi-space. Every chunk of a transfer is garbage once written, and with
 * 16 MB semi-spaces V8 lets tens of MB of it pile up in the young generation before a scavenge, which
 * shows as RSS growth whatever the code holds. The small semi-space collects it early, so what
 * remains is what the transfer keeps alive: a buffered 50 MB body would still show as 50 MB or more
 * there, streamed content as a few chunks.
 */
const NODE_FLAG_SETS: string[][] = [[], ['--max-semi-space-size=1']];
const CHUNK = Buffer.alloc(64 * 1024, 0x61);
const BOUNDARY = 'bench-artifact-boundary';

interface Transfer {
  mbPerSecond: number;
  rssGrowthMb: number;
}

/** The RSS of a process in bytes, from /proc. */
function rssOf(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : 0;
}

/** Runs `transfer` while sampling the service's RSS; answers throughput and peak growth. */
async function measure(pid: number, transfer: () => Promise<void>): Promise<Transfer> {
  const before = rssOf(pid);
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssOf(pid));
  }, 5);
  const started = process.hrtime.bigint();
  try {
    await transfer();
  } finally {
    clearInterval(sampler);
  }
  peak = Math.max(peak, rssOf(pid));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { mbPerSecond: SIZE / MB / seconds, rssGrowthMb: (peak - before) / MB };
}

interface Call {
  port: number;
  token: string;
  method: string;
  path: string;
  headers?: Record<string, string | number>;
  /** The body, written chunk by chunk with backpressure. */
  body?: () => Generator<Buffer>;
}

/** One request; the answer's body is hashed as it arrives and its JSON kept only when it is small. */
function call(options: Call): Promise<{ status: number; json: unknown; sha256: string; bytes: number }> {
  return new Promise((resolvePromise, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: options.port,
        method: options.method,
        path: options.path,
        headers: { Authorization: `Bearer ${options.token}`, ...options.headers },
      },
      (res) => {
        const hash = createHash('sha256');
        const small: Buffer[] = [];
        let bytes = 0;
        res.on('data', (chunk: Buffer) => {
          hash.update(chunk);
          bytes += chunk.length;
          if (bytes <= 64 * 1024) {
            small.push(chunk);
          }
        });
        res.on('end', () => {
          let json: unknown = null;
          if (/json/.test(String(res.headers['content-type']))) {
            json = JSON.parse(Buffer.concat(small).toString('utf8'));
          }
          resolvePromise({ status: res.statusCode ?? 0, json, sha256: hash.digest('hex'), bytes });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    const chunks = options.body?.() ?? [][Symbol.iterator]();
    const pump = (): void => {
      for (;;) {
        const next = chunks.next();
        if (next.done) {
          req.end();
          return;
        }
        if (!req.write(next.value)) {
          req.once('drain', pump);
          return;
        }
      }
    };
    pump();
  });
}

function* content(): Generator<Buffer> {
  for (let sent = 0; sent < SIZE; sent += CHUNK.length) {
    yield SIZE - sent >= CHUNK.length ? CHUNK : CHUNK.subarray(0, SIZE - sent);
  }
}

const FORM_HEAD = Buffer.from(
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="bench.bin"\r\n` +
    'Content-Type: application/octet-stream\r\n\r\n',
);
const FORM_TAIL = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);

function* form(): Generator<Buffer> {
  yield FORM_HEAD;
  yield* content();
  yield FORM_TAIL;
}

async function json(
  port: number,
  token: string,
  method: string,
  path: string,
  body: unknown,
): Promise<Record<string, unknown>> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const parsed = (await res.json()) as { data?: Record<string, unknown> };
  if (!res.ok || !parsed.data) {
    throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(parsed)}`);
  }
  return parsed.data;
}

function startService(scratch: string, db: TestDatabase, nodeFlags: string[]): Promise<RunningServer> {
  return startBenchService(
    scratch,
    db,
    {
      SYNTHORG_WORKSPACE_DIR: join(scratch, 'workspace'),
      SYNTHORG_ARTIFACTS_DIR: join(scratch, 'artifacts'),
      SYNTHORG_ARTIFACT_MAX_BYTES: String(SIZE),
      SYNTHORG_ENGINE_ENABLED: 'false',
    },
    { nodeFlags, outputFile: join(scratch, 'service.out') },
  );
}

/** Runs the artifacts benchmark and prints the report. */
export async function runArtifactsBench(): Promise<void> {
  for (const flags of NODE_FLAG_SETS) {
    await benchWith(flags);
  }
}

/** One service process started with these Node flags, its transfers, and their report. */
async function benchWith(nodeFlags: string[]): Promise<void> {
  const out = (line: string) => process.stdout.write(line + '\n');
  const scratch = mkdtempSync(join(tmpdir(), 'synthorg-bench-artifacts-'));
  let db: TestDatabase | null = null;
  let server: RunningServer | null = null;
  const results: Record<'raw upload' | 'multipart upload' | 'download', Transfer[]> = {
    'raw upload': [],
    'multipart upload': [],
    download: [],
  };
  const first: Partial<Record<keyof typeof results, Transfer>> = {};
  try {
    db = await createTestDatabase('sqlite');
    server = await startService(scratch, db, nodeFlags);
    const { port } = server;
    const pid = server.child.pid!;
    const token = (await json(port, '', 'POST', '/api/v1/auth/setup', {
      username: 'bench',
      password: 'bench-password-0123',
    }).then((data) => data.token)) as string;
    // The task the artifact belongs to, written straight into its table: creating one through the
    // API needs a language-model provider, which this benchmark has no use for.
    const task = 'bench-artifact-task';
    const source = await createDataSource(db.settings).initialize();
    try {
      await source
        .getRepository(TaskEntity)
        .insert(taskRow({ id: task, title: 'Bench', description: 'Produces a large artifact.', project: 'bench' }));
    } finally {
      await source.destroy();
    }
    const artifact = (
      await json(port, token, 'POST', '/api/v1/artifacts', {
        type: 'code',
        path: 'out/bench.bin',
        task_id: task,
        created_by: 'bench',
      })
    ).id as string;
    const expected = createHash('sha256');
    for (const chunk of content()) {
      expected.update(chunk);
    }
    const sha256 = expected.digest('hex');
    const path = `/api/v1/artifacts/${artifact}/content`;
    const upload = (kind: 'raw' | 'multipart') => async () => {
      const res = await call({
        port,
        token,
        method: 'PUT',
        path,
        headers:
          kind === 'raw'
            ? { 'Content-Type': 'application/octet-stream', 'Content-Length': SIZE }
            : {
                'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`,
                'Content-Length': FORM_HEAD.length + SIZE + FORM_TAIL.length,
              },
        body: kind === 'raw' ? content : form,
      });
      const stored = (res.json as { data?: { sha256?: string; size_bytes?: number } } | null)?.data;
      if (res.status !== 200 || stored?.sha256 !== sha256 || stored.size_bytes !== SIZE) {
        throw new Error(`${kind} upload answered ${res.status}: ${JSON.stringify(res.json)}`);
      }
    };
    const download = async () => {
      const res = await call({ port, token, method: 'GET', path });
      if (res.status !== 200 || res.sha256 !== sha256 || res.bytes !== SIZE) {
        throw new Error(`download answered ${res.status} with ${res.bytes} bytes`);
      }
    };
    // The first transfer of each kind (cold: JIT, first buffers) is reported on its own.
    first['raw upload'] = await measure(pid, upload('raw'));
    first['multipart upload'] = await measure(pid, upload('multipart'));
    first.download = await measure(pid, download);
    for (let round = 0; round < ROUNDS; round++) {
      results['raw upload'].push(await measure(pid, upload('raw')));
      results['multipart upload'].push(await measure(pid, upload('multipart')));
      results.download.push(await measure(pid, download));
    }
  } catch (error) {
    out(`\nArtifacts benchmark failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
    return;
  } finally {
    await releaseScratch({ server, db, scratch });
  }
  out(
    `\nArtifacts benchmark, service on Node ${nodeFlags.length > 0 ? nodeFlags.join(' ') : `${SERVICE_NODE_FLAGS.join(' ')} (its production flags)`}: ` +
      `one ${SIZE / MB} MB artifact; the first (cold) transfer of each kind, then ` +
      `${ROUNDS} rounds (MB/s: median; RSS growth: the worst round, over the RSS before it)`,
  );
  out('transfer          first MB/s  first RSS+ MB     MB/s  peak RSS growth MB  goal');
  for (const [name, samples] of Object.entries(results)) {
    const cold = first[name as keyof typeof results];
    const growth = Math.max(...samples.map((s) => s.rssGrowthMb), cold?.rssGrowthMb ?? 0);
    const verdict = growth < RSS_GOAL_MB ? '✓ met' : '✗ NOT met';
    out(
      `${name.padEnd(17)} ${(cold?.mbPerSecond ?? 0).toFixed(0).padStart(10)} ${(cold?.rssGrowthMb ?? 0).toFixed(1).padStart(14)} ` +
        `${median(samples.map((s) => s.mbPerSecond))
          .toFixed(0)
          .padStart(8)} ${growth.toFixed(1).padStart(19)}  ` +
        `< ${RSS_GOAL_MB} MB ${verdict}`,
    );
  }
}
