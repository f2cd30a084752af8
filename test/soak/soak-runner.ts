import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { Client } from 'pg';
import WebSocket from 'ws';

import { type MockLlm, startMockLlm } from '../../apps/mock-llm/src';
import { type PrivatePostgres, startPrivatePostgres } from '../support/private-postgres';

/**
 * The soak: three replicas on one Postgres of their own and the fake provider (slow answers, some
 * errors), under a steady load of task creations, reads, approval reads and WebSocket clients, while a
 * random replica is SIGKILLed and started again every `killEverySeconds`, the replicas are replaced
 * one by one once (a rolling restart: each new one starts before the old one gets SIGTERM, as a
 * Kubernetes rolling update with a surge of one does), and Postgres is restarted once. Everything
 * stays on loopback, bounded in count and time. Answers the figures and the failed checks.
 */
export interface SoakOptions {
  /** Seconds of load, from its start (after the replicas are up); it goes on until every planned fault has happened. */
  durationSeconds: number;
  /** The first kill comes this long into the load, and each next one this long after the previous. */
  killEverySeconds: number;
  /** When the rolling restart comes (seconds into the load); default 40 % of the duration. */
  rollingAtSeconds?: number;
  /** When Postgres is restarted (seconds into the load); default 70 % of the duration. */
  postgresAtSeconds?: number;
  /**
   * Which replica a kill takes: any (`random`, the default), or one with runs in flight (`busy`:
   * waits up to 10 s for one), so that every kill measures a takeover.
   */
  victim?: 'random' | 'busy';
  replicas: number;
  /** Task creations per second across the load. */
  createsPerSecond: number;
  port: number;
  log?: (line: string) => void;
}

export interface SoakReport {
  durationSeconds: number;
  acknowledged: number;
  tasks: { completed: number; failed: number; other: Record<string, number> };
  kills: number;
  rollingRestarts: number;
  postgresRestarts: number;
  recoveryMs: { samples: number; p50: number; p99: number; max: number };
  requests: { total: number; errors: number; errorsOutsideFaults: number };
  websocketEvents: number;
  rssMb: Array<{ replica: number; startMb: number; endMb: number }>;
  failures: string[];
}

/** The built server: beside this file when it runs from dist/, under dist/ when it runs from the sources. */
const MAIN = [
  resolve(__dirname, '../../apps/api/src/main.js'),
  resolve(__dirname, '../../dist/apps/api/src/main.js'),
].find((path) => existsSync(path));
const ANSI = new RegExp(String.fromCharCode(27) + '\\[[0-9;]*m', 'g');
const PASSWORD = 'correct-horse-battery-staple';
/** After a kill, restart or Postgres restart, errors within this window are the fault's. */
const FAULT_WINDOW_MS = 30_000;
/** The load's longest run past its duration while a planned fault is still to come. */
const OVERRUN_MS = 300_000;

interface Replica {
  index: number;
  proc: ChildProcess;
  url: string;
  owner: string;
  output: string;
  exited: Promise<void>;
  startRssMb: number;
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

function rssMb(pid: number | undefined): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Math.round(Number(match[1]) / 1024) : 0;
  } catch {
    return 0;
  }
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) {
    return 0;
  }
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export async function runSoak(options: SoakOptions): Promise<SoakReport> {
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const started = Date.now();
  const dir = mkdtempSync(join(tmpdir(), 'synthorg-soak-'));
  const failures: string[] = [];
  const faults: number[] = [];
  const fault = (): void => {
    faults.push(Date.now());
  };
  const inFault = (at: number): boolean => faults.some((t) => at >= t - 1_000 && at <= t + FAULT_WINDOW_MS);
  const pg: PrivatePostgres = await startPrivatePostgres(options.port);
  const mock: MockLlm = await startMockLlm();
  const connect = async (): Promise<Client> => {
    const client = new Client({ connectionString: pg.url });
    client.on('error', () => undefined); // a Postgres restart ends it; the next one replaces it
    await client.connect();
    return client;
  };
  let sql: Client | null = null;
  const db = (): Client => {
    if (!sql) {
      throw new Error('no database connection');
    }
    return sql;
  };
  const replicas: Array<Replica | null> = [];
  /** Every replica process started, live or draining: none outlives the soak. */
  const processes = new Set<Replica>();
  const rss: SoakReport['rssMb'] = [];
  let stopping = false;

  const startReplica = async (index: number): Promise<Replica> => {
    if (!MAIN) {
      throw new Error('the server is not built: run npm run build first');
    }
    const proc = spawn(process.execPath, [MAIN], {
      cwd: dir,
      env: {
        ...process.env,
        SYNTHORG_DATABASE_URL: pg.url,
        SYNTHORG_JWT_SECRET: 'soak-secret-soak-secret-soak-secret-0123456789',
        SYNTHORG_PORT: '0',
        SYNTHORG_LOG_DIR: join(dir, `logs-${index}`),
        SYNTHORG_RATE_LIMIT_AUTHENTICATED_PER_MINUTE: '1000000',
        SYNTHORG_ENGINE_HEARTBEAT_SECONDS: '2',
        SYNTHORG_BUDGET_TOTAL_MONTHLY: '0',
        SYNTHORG_BUDGET_PER_AGENT_DAILY_LIMIT: '0',
        SYNTHORG_DISCOVERY_BLOCK_PRIVATE_IPS: 'false',
        SYNTHORG_SHUTDOWN_GRACE_SECONDS: '10',
        SYNTHORG_ENGINE_GRACE_SECONDS: '5',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const replica = { index, proc, url: '', owner: '', output: '', startRssMb: 0 } as Replica;
    replica.exited = new Promise((done) => proc.once('exit', () => done()));
    processes.add(replica);
    void replica.exited.then(() => processes.delete(replica));
    const port = await new Promise<number>((resolvePort, reject) => {
      const timer = setTimeout(() => reject(new Error(`replica ${index}: no start within 60 s`)), 60_000);
      const onData = (chunk: Buffer): void => {
        replica.output = (replica.output + chunk.toString()).slice(-200_000);
        const text = replica.output.replace(ANSI, '');
        const owner = /engine\.dispatcher\.started[^\n]*"owner":"([^"]+)"/.exec(text);
        if (owner) {
          replica.owner = owner[1];
        }
        const match = /api\.server\.started[\s\S]*?port[^0-9]*(\d+)/.exec(text);
        if (match) {
          clearTimeout(timer);
          resolvePort(Number(match[1]));
        }
      };
      proc.stdout?.on('data', onData);
      proc.stderr?.on('data', onData);
      void replica.exited.then(() =>
        reject(new Error(`replica ${index} exited while starting:\n${replica.output.slice(-3000)}`)),
      );
    });
    replica.url = `http://127.0.0.1:${port}/api/v1`;
    replica.startRssMb = rssMb(proc.pid);
    replicas[index] = replica;
    return replica;
  };

  let requests = 0;
  let errors = 0;
  let errorsOutsideFaults = 0;
  const errorSamples: string[] = [];
  const live = (): Replica[] => replicas.filter((r): r is Replica => r !== null && r.url !== '');
  const request = async (method: string, path: string, token: string | null, body?: Json): Promise<Json | null> => {
    const targets = live();
    const target = targets[Math.floor(Math.random() * targets.length)];
    if (!target) {
      return null;
    }
    const at = Date.now();
    requests += 1;
    try {
      const res = await fetch(`${target.url}${path}`, {
        method,
        headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(15_000),
      });
      const text = await res.text();
      if (res.status >= 300) {
        throw new Error(`${method} ${path} ${res.status} ${text.slice(0, 200)}`);
      }
      return text ? (JSON.parse(text) as Json) : {};
    } catch (error) {
      errors += 1;
      if (!inFault(at) && !inFault(Date.now()) && !stopping) {
        errorsOutsideFaults += 1;
        if (errorSamples.length < 10) {
          errorSamples.push(`${new Date(at).toISOString()} replica ${target.index}: ${(error as Error).message}`);
        }
      }
      return null;
    }
  };

  const acknowledged = new Map<string, string>();
  const sent = new Set<string>();
  let websocketEvents = 0;
  const sockets: WebSocket[] = [];
  let feed: NodeJS.Timeout | undefined;
  let load: NodeJS.Timeout | undefined;
  try {
    sql = await connect();
    // The first replica migrates the new database; the others start together once it is up.
    await startReplica(0);
    await Promise.all(Array.from({ length: options.replicas - 1 }, (_, i) => startReplica(i + 1)));
    const first = live()[0];
    const setup = async (path: string, body: Json, token: string | null = null): Promise<Json> => {
      const res = await fetch(`${first.url}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });
      if (res.status >= 300) {
        throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
      }
      return (await res.json()) as Json;
    };
    const token = (await setup('/auth/setup', { username: 'ceo', password: PASSWORD })).data.token as string;
    await setup(
      '/providers',
      {
        name: 'mock',
        gateway_provider: 'openai',
        auth_type: 'none',
        base_url: `${mock.url}/v1`,
        models: [{ id: 'mock-small', cost_per_1k_input: 1, cost_per_1k_output: 2, max_context: 8000 }],
      },
      token,
    );
    const company = await setup('/setup/company', { company_name: 'Soak', template_name: 'startup' }, token);
    const agents = (company.data.agents as Json[]).map((a) => a.name as string);
    const project = (await setup('/projects', { name: 'Soak' }, token)).data.id as string;
    log(`soak: ${options.replicas} replicas up, ${agents.length} agents, running ${options.durationSeconds} s`);

    // The fake provider: answers after 1–5 s, one in twenty a 500.
    feed = setInterval(() => {
      const replies = Array.from({ length: 20 }, () =>
        Math.random() < 0.05
          ? { kind: 'error' as const, status: 500 as const }
          : { kind: 'text' as const, text: 'Done.', delayMs: 1_000 + Math.floor(Math.random() * 4_000) },
      );
      mock.enqueue(...replies);
    }, 5_000);
    mock.enqueue(...Array.from({ length: 20 }, () => ({ kind: 'text' as const, text: 'Done.', delayMs: 500 })));

    // WebSocket clients: each reconnects (to a live replica) when its socket closes.
    const openSocket = async (): Promise<void> => {
      if (stopping) {
        return;
      }
      const ticket = await request('POST', '/auth/ws-ticket', token, {});
      const target = live()[Math.floor(Math.random() * live().length)];
      if (!ticket || !target) {
        setTimeout(() => void openSocket(), 1_000).unref();
        return;
      }
      const ws = new WebSocket(`${target.url.replace('http', 'ws')}/ws?ticket=${ticket.data.ticket as string}`);
      sockets.push(ws);
      ws.on('message', () => {
        websocketEvents += 1;
      });
      ws.on('open', () => ws.send(JSON.stringify({ action: 'subscribe', channels: ['tasks', 'budget'] })));
      ws.on('error', () => undefined);
      ws.on('close', () => {
        if (!stopping) {
          setTimeout(() => void openSocket(), 500).unref();
        }
      });
    };
    for (let i = 0; i < 3; i += 1) {
      await openSocket();
    }

    // The load: creations at the given rate, reads and approval reads between them.
    let serial = 0;
    load = setInterval(
      () => {
        if (stopping) {
          return;
        }
        serial += 1;
        const marker = `soak-${serial}`;
        sent.add(marker);
        void request('POST', '/tasks', token, {
          title: marker,
          description: 'Answer done.',
          type: 'development',
          project,
          created_by: 'ceo',
          assigned_to: agents[serial % agents.length],
        }).then((res) => {
          if (res) {
            acknowledged.set(marker, res.data.id as string);
          }
        });
        const ids = [...acknowledged.values()];
        if (ids.length > 0) {
          void request('GET', `/tasks/${ids[Math.floor(Math.random() * ids.length)]}`, token);
        }
        void request('GET', '/tasks?limit=20', token);
        void request('GET', '/approvals?limit=20', token);
      },
      Math.max(50, Math.round(1000 / options.createsPerSecond)),
    );

    // The faults.
    const recovery: number[] = [];
    let kills = 0;
    /** A random replica; with `busy`, a random one of those with runs in flight, when one has any within 10 s. */
    const chooseVictim = async (): Promise<Replica | undefined> => {
      const pick = (from: Replica[]): Replica | undefined => from[Math.floor(Math.random() * from.length)];
      if (options.victim !== 'busy') {
        return pick(live());
      }
      for (const deadline = Date.now() + 10_000; Date.now() < deadline; await sleep(250)) {
        const owners = await db().query<{ owner: string }>(
          `SELECT DISTINCT "run_owner" AS owner FROM "tasks" WHERE "status" = 'in_progress'`,
        );
        const busy = new Set(owners.rows.map((r) => r.owner));
        const candidates = live().filter((r) => busy.has(r.owner));
        if (candidates.length > 0) {
          return pick(candidates);
        }
      }
      return pick(live());
    };
    const killOne = async (): Promise<void> => {
      const victim = await chooseVictim();
      if (!victim) {
        return;
      }
      const owned = await db().query<{ id: string }>(
        `SELECT "id" FROM "tasks" WHERE "status" = 'in_progress' AND "run_owner" = $1`,
        [victim.owner],
      );
      fault();
      const killedAt = Date.now();
      replicas[victim.index] = null;
      victim.proc.kill('SIGKILL');
      await victim.exited;
      kills += 1;
      // The victim starts again meanwhile; the live replicas are the ones expected to take its runs.
      const restarting = startReplica(victim.index);
      restarting.catch(() => undefined); // awaited below; a failed start fails the soak there
      const ids = owned.rows.map((r) => r.id);
      let took: number | undefined;
      if (ids.length > 0) {
        for (;;) {
          const left = await db().query(`SELECT 1 FROM "tasks" WHERE "id" = ANY($1) AND "run_owner" = $2`, [
            ids,
            victim.owner,
          ]);
          if (left.rowCount === 0) {
            took = Date.now() - killedAt;
            recovery.push(took);
            break;
          }
          if (Date.now() - killedAt > 120_000) {
            failures.push(`kill ${kills}: ${ids.length} tasks of ${victim.owner} not taken over within 120 s`);
            break;
          }
          await sleep(200);
        }
      }
      await restarting;
      log(
        ids.length === 0
          ? `soak: kill ${kills} (replica ${victim.index}, no run in flight)`
          : `soak: kill ${kills} (replica ${victim.index}, ${ids.length} runs in flight) ${
              took === undefined ? 'not taken over' : `taken over in ${took} ms`
            }`,
      );
    };
    let rollingRestarts = 0;
    let postgresRestarts = 0;
    // Each replica in turn: its replacement starts, takes its place in the load, and then the old one
    // gets SIGTERM and drains while the next replacement starts.
    const rolling = async (): Promise<void> => {
      const draining: Array<Promise<void>> = [];
      for (const old of live()) {
        fault();
        await startReplica(old.index);
        old.proc.kill('SIGTERM');
        draining.push(old.exited);
      }
      await Promise.all(draining);
      fault();
      rollingRestarts += 1;
      log('soak: rolling SIGTERM restart done');
    };
    const restartPostgres = async (): Promise<void> => {
      fault();
      pg.stop();
      await sleep(3_000);
      pg.start();
      fault();
      await sql?.end().catch(() => undefined);
      sql = await connect();
      postgresRestarts += 1;
      log('soak: Postgres restarted');
    };

    // The faults' times count from the start of the load. The load goes on past its duration until
    // each planned fault (a kill, the rolling restart, the Postgres restart) has happened, within a
    // bound; the one-off faults go before a kill that is due at the same time.
    const loadStarted = Date.now();
    const at = (seconds: number): number => loadStarted + seconds * 1000;
    const end = at(options.durationSeconds);
    let nextKill = at(options.killEverySeconds);
    const rollingAt = at(options.rollingAtSeconds ?? options.durationSeconds * 0.4);
    const postgresAt = at(options.postgresAtSeconds ?? options.durationSeconds * 0.7);
    let rolled = false;
    let restarted = false;
    const pending = (): boolean => kills === 0 || !rolled || !restarted;
    while ((Date.now() < end || pending()) && Date.now() < end + OVERRUN_MS) {
      const now = Date.now();
      if (!rolled && now >= rollingAt) {
        rolled = true;
        await rolling();
      } else if (!restarted && now >= postgresAt) {
        restarted = true;
        await restartPostgres();
      } else if (now >= nextKill) {
        await killOne();
        nextKill = Date.now() + options.killEverySeconds * 1000;
      }
      await sleep(250);
    }
    if (pending()) {
      failures.push(`faults left undone: kills ${kills}, rolling restart ${rolled}, Postgres restart ${restarted}`);
    }
    stopping = true;
    clearInterval(load);
    clearInterval(feed);
    mock.enqueue(...Array.from({ length: 500 }, () => ({ kind: 'text' as const, text: 'Done.' })));
    log('soak: load stopped, waiting for every task to finish');

    // Every task finished or explicitly failed: none stuck.
    const drainEnd = Date.now() + 180_000;
    let statuses: Array<{ status: string; n: string }> = [];
    for (;;) {
      statuses = (
        await db().query<{ status: string; n: string }>(`SELECT "status", COUNT(*) AS n FROM "tasks" GROUP BY "status"`)
      ).rows;
      const open = statuses.filter((s) => !['completed', 'failed', 'cancelled'].includes(s.status));
      if (open.length === 0 || Date.now() > drainEnd) {
        break;
      }
      await sleep(1_000);
    }
    const counts = Object.fromEntries(statuses.map((s) => [s.status, Number(s.n)]));
    const stuck = statuses.filter((s) => !['completed', 'failed', 'cancelled'].includes(s.status));
    if (stuck.length > 0) {
      failures.push(`tasks stuck: ${JSON.stringify(stuck)}`);
    }

    // Acknowledged writes exactly once; unacknowledged ones at most once.
    const titles = (
      await db().query<{ title: string; n: string }>(`SELECT "title", COUNT(*) AS n FROM "tasks" GROUP BY "title"`)
    ).rows;
    const found = new Map(titles.map((t) => [t.title, Number(t.n)]));
    for (const marker of sent) {
      const n = found.get(marker) ?? 0;
      if (n > 1 || (acknowledged.has(marker) && n !== 1)) {
        failures.push(`task ${marker}: acknowledged ${acknowledged.has(marker)}, stored ${n} times`);
      }
    }
    // No run twice: at most one successful run metric per task.
    const twice = await db().query(
      `SELECT "task_id" FROM "task_metrics" WHERE "is_success" GROUP BY "task_id" HAVING COUNT(*) > 1`,
    );
    if ((twice.rowCount ?? 0) > 0) {
      failures.push(`${twice.rowCount} tasks completed by more than one run`);
    }
    // No cost twice: each recovered reservation charged once, records no more than answered calls.
    const charged = await db().query(
      `SELECT "cost_record_id" FROM "budget_reservations" WHERE "state" = 'recovered'
         GROUP BY "cost_record_id" HAVING COUNT(*) > 1`,
    );
    if ((charged.rowCount ?? 0) > 0) {
      failures.push(`${charged.rowCount} estimate records charged for more than one reservation`);
    }
    const records = Number(
      (await db().query<{ n: string }>(`SELECT COUNT(*) AS n FROM "cost_records" WHERE "input_tokens" > 0`)).rows[0].n,
    );
    const chats = mock.requests.filter((r) => r.path.endsWith('/chat/completions')).length;
    if (records > chats) {
      failures.push(`${records} cost records for ${chats} model calls`);
    }
    const p99 = percentile(recovery, 99);
    if (p99 >= 20_000) {
      failures.push(`recovery p99 ${p99} ms (goal < 20 s)`);
    }
    if (errorsOutsideFaults > 0) {
      failures.push(`${errorsOutsideFaults} request errors outside the fault windows: ${errorSamples.join(' | ')}`);
    }
    for (const replica of live()) {
      rss.push({ replica: replica.index, startMb: replica.startRssMb, endMb: rssMb(replica.proc.pid) });
    }
    return {
      durationSeconds: Math.round((Date.now() - started) / 1000),
      acknowledged: acknowledged.size,
      tasks: {
        completed: counts.completed ?? 0,
        failed: counts.failed ?? 0,
        other: Object.fromEntries(Object.entries(counts).filter(([k]) => k !== 'completed' && k !== 'failed')),
      },
      kills,
      rollingRestarts,
      postgresRestarts,
      recoveryMs: { samples: recovery.length, p50: percentile(recovery, 50), p99, max: Math.max(0, ...recovery) },
      requests: { total: requests, errors, errorsOutsideFaults },
      websocketEvents,
      rssMb: rss,
      failures,
    };
  } finally {
    stopping = true;
    clearInterval(load);
    clearInterval(feed);
    sockets.forEach((ws) => ws.terminate());
    for (const replica of [...processes]) {
      replica.proc.kill('SIGKILL');
      await replica.exited;
    }
    await sql?.end().catch(() => undefined);
    await mock.close();
    pg.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}
