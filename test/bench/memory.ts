// Agent memory (part of `npm run bench`; alone: BENCH_ONLY=memory): the retrieval a task start makes,
// with the embedding call left out (its cost is the provider's and is shown by the provider's call
// records; the bench prints the fake provider's round trip apart), and the memory the replica's
// vector index takes per 100,000 entries. For each backend (BENCH_MEMORY_BACKENDS, sqlite,postgres)
// it writes BENCH_MEMORY_TOTAL entries (100,000; set 1000000 for the 1M case, about 1.6 GB of
// vectors at 384 dimensions, so not the default on a shared machine) into a fresh database's
// memory_entries table, BENCH_MEMORY_PER_AGENT (10,000) per agent, then the service's own rebuild
// reads them through the repository into its index, and the service's compose (search, §14
// ranking, packing) is timed per task start, each query for another agent. Vectors have
// BENCH_MEMORY_DIMS (384) dimensions and gather around topics, so a query finds some entries above
// the 0.3 relevance floor, as real ones do. Figures only: no timed assertions.
import { loadavg } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

import pino from 'pino';
import type { DataSource } from 'typeorm';

import { startMockLlm } from '../../apps/mock-llm/src';
import { MemoryRepository } from '../../apps/api/src/modules/memory/memory.repository';
import { MemoryService } from '../../apps/api/src/modules/memory/memory.service';
// The domain alone for the vectors.
// eslint-disable-next-line no-restricted-imports
import { encodeVector, normalise } from '../../libs/domain/src/memory';
import {
  type AgentEntity,
  createDataSource,
  type MemoryEntryEntity,
  type TaskEntity,
} from '../../libs/persistence/src';
// Library files alone: the @app/testing index also loads the Jest helpers.
// eslint-disable-next-line no-restricted-imports
import { createTestDatabase, type TestDatabase } from '../../libs/testing/src/databases';

import { median } from './harness';
import { insertRows } from './seeding';

type Backend = 'sqlite' | 'postgres';
const BACKENDS = (process.env.BENCH_MEMORY_BACKENDS ?? 'sqlite,postgres')
  .split(',')
  .map((b) => b.trim())
  .filter((b): b is Backend => b === 'sqlite' || b === 'postgres');

const DIMS = Number(process.env.BENCH_MEMORY_DIMS ?? 384);
const PER_AGENT = Number(process.env.BENCH_MEMORY_PER_AGENT ?? 10_000);
const TOTAL = Number(process.env.BENCH_MEMORY_TOTAL ?? 100_000);
const QUERIES = Number(process.env.BENCH_MEMORY_QUERIES ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const TOPICS = 50;
const MARKER = `bench/embed/${DIMS}`;
const BATCH = 5_000;

/** A deterministic generator, so runs compare. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const rand = random(45);
const gaussian = () => Math.sqrt(-2 * Math.log(rand() || 1e-12)) * Math.cos(2 * Math.PI * rand());
const topics = Array.from({ length: TOPICS }, () => normalise(Array.from({ length: DIMS }, gaussian)));

/** A unit vector near a topic (cosine about 0.6 to it). */
function near(topic: Float32Array): Float32Array {
  const noise = normalise(Array.from({ length: DIMS }, gaussian));
  return normalise(Array.from(topic, (v, i) => v + 0.75 * noise[i]));
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

function collect(): () => void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  return () => {
    gc();
    gc();
  };
}

/** Heap and array-buffer bytes in use (the vectors are typed arrays: their bytes are outside the JS heap). */
function used(): number {
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

const agentId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** Writes every agent's rows into the table, a batch at a time. */
async function seed(source: DataSource): Promise<void> {
  const created = Date.now() - 90 * 86_400_000;
  const entity = source.entityMetadatas.find((m) => m.tableName === 'memory_entries')?.target as new () => object;
  // Under both dialects' bound-parameter ceilings (14 columns a row).
  const perInsert = source.options.type === 'postgres' ? 1_000 : 200;
  for (let start = 0; start < TOTAL; start += BATCH) {
    const rows: MemoryEntryEntity[] = [];
    for (let i = start; i < Math.min(TOTAL, start + BATCH); i += 1) {
      rows.push({
        id: `e${String(i).padStart(9, '0')}`,
        agentId: agentId(Math.floor(i / PER_AGENT)),
        category: i % 3 === 0 ? 'semantic' : 'episodic',
        level: 'persistent',
        project: null,
        taskId: null,
        content: `Entry ${i}: what was learned while working on topic ${i % TOPICS}, kept short as a note.`,
        metadata: {},
        embedder: MARKER,
        archiveId: null,
        createdAt: new Date(created + i * 1000),
        updatedAt: null,
        expiresAt: null,
        embedding: Buffer.from(encodeVector(near(topics[i % TOPICS]))),
      });
    }
    await source.transaction((manager) => insertRows(manager, source, entity, rows, perInsert));
  }
}

/**
 * The embedding call a task start also makes, shown apart: the fake provider's OpenAI-compatible
 * `POST /v1/embeddings` on loopback for a task's title and description (a real model adds its own
 * time; the provider's call records show it).
 */
async function embeddingCall(): Promise<void> {
  const mock = await startMockLlm();
  try {
    const times: number[] = [];
    for (let i = 0; i < 20 + QUERIES; i += 1) {
      const t0 = performance.now();
      const res = await fetch(`${mock.url}/v1/embeddings`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          model: 'mock-embed',
          input: [`Plan maintenance around the staging database rotation ${i}\nPick a window that avoids it.`],
          dimensions: DIMS,
        }),
      });
      await res.json();
      if (i >= 20) {
        times.push(performance.now() - t0);
      }
    }
    times.sort((a, b) => a - b);
    process.stdout.write(
      `memory: embedding call apart (fake provider on loopback, ${DIMS} dims): p50 ${percentile(times, 50).toFixed(2)} ms, ` +
        `p99 ${percentile(times, 99).toFixed(2)} ms over ${QUERIES} calls\n`,
    );
  } finally {
    await mock.close();
  }
}

export async function runMemoryBench(): Promise<void> {
  await embeddingCall();
  for (const backend of BACKENDS) {
    let db: TestDatabase | null = null;
    let source: DataSource | null = null;
    try {
      db = await createTestDatabase(backend);
      source = await createDataSource(db.settings).initialize();
      await source.runMigrations();
      const seeding = performance.now();
      await seed(source);
      const seedSeconds = (performance.now() - seeding) / 1000;
      // What the database would have done on its own before the table is read: statistics, and the
      // writes settled (a checkpoint), so its background work does not share the timed queries' cores.
      if (backend === 'postgres') {
        await source.query('VACUUM ANALYZE memory_entries');
        await source.query('CHECKPOINT');
      } else {
        await source.query('PRAGMA wal_checkpoint(TRUNCATE)');
      }
      await measure(backend, source, seedSeconds);
    } catch (error) {
      process.stdout.write(`memory (${backend}): failed: ${(error as Error).stack ?? String(error)}\n`);
    } finally {
      await source?.destroy().catch(() => undefined);
      await db?.drop().catch(() => undefined);
    }
  }
}

async function measure(backend: Backend, source: DataSource, seedSeconds: number): Promise<void> {
  const gc = collect();
  const silent = pino({ level: 'silent' });
  const settings = { value: (_ns: string, key: string) => (key === 'retrieval_token_budget' ? 1500 : null) };
  const repository = new MemoryRepository({ dataSource: source } as never);
  const service = new MemoryService(
    repository,
    null as never,
    settings as never,
    null as never,
    null as never,
    null as never,
    { forName: () => silent } as never,
  );
  gc();
  const before = used();
  const started = performance.now();
  await service.rebuild();
  const rebuildMs = performance.now() - started;
  gc();
  const bytes = used() - before;
  const agents = Math.ceil(TOTAL / PER_AGENT);
  // Warm-up: the JIT and the native search's first calls.
  for (let q = 0; q < 50; q += 1) {
    service.compose(
      { id: agentId(q % agents) } as AgentEntity,
      { id: 'warm', project: 'bench' } as TaskEntity,
      near(topics[q % TOPICS]),
      MARKER,
    );
  }
  const p50s: number[] = [];
  const p99s: number[] = [];
  let injected = 0;
  for (let round = 0; round < ROUNDS; round += 1) {
    const times: number[] = [];
    for (let q = 0; q < QUERIES; q += 1) {
      const agent = { id: agentId((round * QUERIES + q) % agents) } as AgentEntity;
      const task = { id: `task-${q}`, project: 'bench' } as TaskEntity;
      const query = near(topics[q % TOPICS]);
      const t0 = performance.now();
      const message = service.compose(agent, task, query, MARKER);
      times.push(performance.now() - t0);
      injected += message ? message.split('\n').length - 1 : 0;
    }
    times.sort((a, b) => a - b);
    p50s.push(percentile(times, 50));
    p99s.push(percentile(times, 99));
  }
  const perHundredK = (bytes / TOTAL) * 100_000;
  process.stdout.write(
    `memory (${backend}): ${TOTAL.toLocaleString('en')} entries (${PER_AGENT.toLocaleString('en')} per agent, ${DIMS} dims), ` +
      `written in ${seedSeconds.toFixed(0)} s, read into the index in ${(rebuildMs / 1000).toFixed(1)} s\n` +
      `memory (${backend}): retrieval per task start, embedding call excluded: p50 ${median(p50s).toFixed(2)} ms, ` +
      `p99 ${median(p99s).toFixed(2)} ms (goal p99 < 5 ms; medians of ${ROUNDS} rounds x ${QUERIES}; ` +
      `per round ${p99s.map((p) => p.toFixed(1)).join(', ')}; machine load average ${loadavg()[0].toFixed(1)}), ` +
      `${(injected / (ROUNDS * QUERIES)).toFixed(1)} lines injected on average\n` +
      `memory (${backend}): index heap ${(bytes / 1_048_576).toFixed(1)} MB, ${(perHundredK / 1_048_576).toFixed(1)} MB per 100,000 entries ` +
      `(vectors alone ${((DIMS * 4 * 100_000) / 1_048_576).toFixed(1)} MB)\n`,
  );
}
