// The hot single-row statements (part of `npm run bench`; alone: BENCH_ONLY=statements): a task read
// by id, a compare-and-set update and an insert, each through TypeORM's repository and query builder
// and through EntityStatements (libs/persistence), on SQLite and Postgres over 1,000 task rows. Prints
// the process's CPU time and the wall time per statement (medians over rounds), and the share of CPU
// the statements save. The engine runs about ten such statements per task, on its critical path.
import { randomUUID } from 'node:crypto';

import { createDataSource, EntityStatements, runMigrations, TaskEntity } from '../../libs/persistence/src';
// The database helper and the task row alone: the @app/testing index also loads the Jest helpers,
// which the bench build does not compile.
// eslint-disable-next-line no-restricted-imports
import { createTestDatabase } from '../../libs/testing/src/databases';
// eslint-disable-next-line no-restricted-imports
import { taskRow } from '../../libs/testing/src/task-rows';
import { median } from './harness';

const ROWS = 1000;
const CALLS = Number(process.env.BENCH_STATEMENTS_CALLS ?? 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

function task(id: string): TaskEntity {
  return taskRow({ id, reviewers: ['reviewer'], acceptanceCriteria: [{ description: 'done', met: false }] });
}

interface Figure {
  cpuUs: number;
  wallUs: number;
}

/** CPU and wall microseconds per call of `call`, medians over the rounds (the first round warms up). */
async function measure(call: (i: number) => Promise<unknown>): Promise<Figure> {
  const cpu: number[] = [];
  const wall: number[] = [];
  for (let round = 0; round <= ROUNDS; round += 1) {
    const usage = process.cpuUsage();
    const started = performance.now();
    for (let i = 0; i < CALLS; i += 1) {
      await call(i);
    }
    const spent = process.cpuUsage(usage);
    if (round > 0) {
      cpu.push((spent.user + spent.system) / CALLS);
      wall.push(((performance.now() - started) * 1000) / CALLS);
    }
  }
  return { cpuUs: median(cpu), wallUs: median(wall) };
}

async function backendFigures(backend: 'sqlite' | 'postgres'): Promise<void> {
  const db = await createTestDatabase(backend);
  const source = await createDataSource(db.settings).initialize();
  try {
    await runMigrations(source);
    const repo = source.getRepository(TaskEntity);
    const statements = EntityStatements.for(source, TaskEntity);
    const ids = Array.from({ length: ROWS }, () => `task-${randomUUID()}`);
    for (const id of ids) {
      await repo.insert(task(id));
    }
    const id = (i: number): string => ids[i % ROWS] ?? '';
    // A compare-and-set against a version no row has: the statement's full cost, no row changed,
    // so every round sees the same table.
    const changes = { status: 'assigned' as const, statusReason: null, updatedAt: new Date() };
    const pairs: [string, () => Promise<Figure>, () => Promise<Figure>][] = [
      [
        'find by id',
        () => measure((i) => repo.findOneBy({ id: id(i) })),
        () => measure((i) => statements.findOne({ id: id(i) })),
      ],
      [
        'compare-and-set',
        () =>
          measure((i) =>
            repo
              .createQueryBuilder()
              .update(TaskEntity)
              .set({ ...changes, version: () => 'version + 1' })
              .where('id = :id AND version = :version', { id: id(i), version: 0 })
              .execute(),
          ),
        () => measure((i) => statements.update({ id: id(i), version: 0 }, changes, { increment: { version: 1 } })),
      ],
      [
        'insert',
        () => measure(() => repo.insert(task(`task-${randomUUID()}`))),
        () => measure(() => statements.insert(task(`task-${randomUUID()}`))),
      ],
    ];
    for (const [label, viaTypeOrm, viaStatements] of pairs) {
      const before = await viaTypeOrm();
      const after = await viaStatements();
      const saved = (1 - after.cpuUs / before.cpuUs) * 100;
      process.stdout.write(
        `${backend.padEnd(8)}  ${label.padEnd(16)} TypeORM ${before.cpuUs.toFixed(0).padStart(4)} µs CPU ` +
          `(${before.wallUs.toFixed(0).padStart(4)} µs wall)  EntityStatements ${after.cpuUs.toFixed(0).padStart(4)} µs CPU ` +
          `(${after.wallUs.toFixed(0).padStart(4)} µs wall)  ${saved.toFixed(0)}% less CPU\n`,
      );
    }
  } finally {
    await source.destroy();
    await db.drop();
  }
}

export async function runStatementsBench(): Promise<void> {
  process.stdout.write(
    `\nSingle-row statements, per call (${CALLS} calls x ${ROUNDS} rounds over ${ROWS} task rows)\n`,
  );
  for (const backend of ['sqlite', 'postgres'] as const) {
    await backendFigures(backend);
  }
}
