import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';

import { createDataSource } from '@app/persistence';

import { statementAttributes, tracedSqliteLibrary, withoutLiterals } from './sqlite-tracing';
import { withSpan } from './tracing';

interface Db {
  prepare(source: string): {
    run(...params: unknown[]): unknown;
    get(...params: unknown[]): unknown;
    all(...params: unknown[]): unknown;
  };
  exec(source: string): void;
  close(): void;
}

describe('SQLite statement spans', () => {
  const exporter = new InMemorySpanExporter();
  const opened: Db[] = [];

  const open = (): Db => {
    const Traced = tracedSqliteLibrary() as unknown as new (path: string) => Db;
    const db = new Traced(':memory:');
    opened.push(db);
    db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL UNIQUE)');
    return db;
  };

  beforeAll(() => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    trace.setGlobalTracerProvider(new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] }));
  });

  afterAll(() => {
    opened.splice(0).forEach((db) => db.close());
    trace.disable();
    context.disable();
  });

  beforeEach(() => exporter.reset());

  it('should make a span of each execution inside a traced request, without the bound values', async () => {
    const db = open();
    const rows = await withSpan('request', {}, () => {
      db.prepare('INSERT INTO notes (body) VALUES (?)').run('secret-value-1');
      expect(db.prepare('SELECT body FROM notes WHERE id = ?').get(1)).toEqual({ body: 'secret-value-1' });
      return Promise.resolve(db.prepare('SELECT count(*) AS n FROM notes').all());
    });
    expect(rows).toEqual([{ n: 1 }]);

    const spans = exporter.getFinishedSpans();
    const request = spans.find((s) => s.name === 'request')!;
    const statements = spans.filter((s) => s.name !== 'request');
    expect(statements.map((s) => s.name)).toEqual(['INSERT', 'SELECT', 'SELECT']);
    for (const span of statements) {
      expect(span.kind).toBe(2); // CLIENT
      expect(span.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
      expect(span.attributes['db.system.name']).toBe('sqlite');
      expect(JSON.stringify(span.attributes)).not.toContain('secret-value-1');
    }
    expect(statements[0].attributes).toEqual({
      'db.system.name': 'sqlite',
      'db.operation.name': 'INSERT',
      'db.query.text': 'INSERT INTO notes (body) VALUES (?)',
    });
  });

  it('should make no span outside a traced request or run', () => {
    const db = open();
    db.prepare('INSERT INTO notes (body) VALUES (?)').run('untraced');
    expect(db.prepare('SELECT body FROM notes').all()).toEqual([{ body: 'untraced' }]);
    expect(exporter.getFinishedSpans()).toEqual([]);
  });

  it('should mark a failing statement and rethrow its error', async () => {
    const db = open();
    db.prepare('INSERT INTO notes (body) VALUES (?)').run('once');
    await expect(
      withSpan(
        'request',
        {},
        () => new Promise((resolve) => resolve(db.prepare('INSERT INTO notes (body) VALUES (?)').run('once'))),
      ),
    ).rejects.toThrow(/UNIQUE constraint failed/);
    const insert = exporter.getFinishedSpans().find((s) => s.name === 'INSERT')!;
    expect(insert.status.code).toBe(2); // ERROR
    expect(insert.attributes['error.type']).toBe('SQLITE_CONSTRAINT_UNIQUE');
    expect(insert.events.map((e) => e.name)).toEqual(['exception']);
  });

  it('should trace the statements TypeORM runs through its driver', async () => {
    const source = createDataSource({
      backend: 'sqlite',
      sqlitePath: ':memory:',
      databaseUrl: null,
      sqliteLibrary: tracedSqliteLibrary(),
    });
    await source.initialize();
    try {
      const rows = await withSpan('run', {}, () => source.query<unknown[]>('SELECT ? AS answer', [42]));
      expect(rows).toEqual([{ answer: 42 }]);
      const select = exporter.getFinishedSpans().find((s) => s.name === 'SELECT')!;
      expect(select.attributes['db.query.text']).toBe('SELECT ? AS answer');
    } finally {
      await source.destroy();
    }
  });

  it('should name the operation and keep quoted literals out of the text', () => {
    expect(statementAttributes("  select 1 FROM sqlite_master WHERE type = 'table' AND name = 'it''s'")).toEqual({
      'db.system.name': 'sqlite',
      'db.operation.name': 'SELECT',
      'db.query.text': '  select 1 FROM sqlite_master WHERE type = ? AND name = ?',
    });
    expect(withoutLiterals(`UPDATE "notes" SET "body" = X'00ff', "id" = ? WHERE "body" = ''`)).toBe(
      'UPDATE "notes" SET "body" = ?, "id" = ? WHERE "body" = ?',
    );
    expect(statementAttributes('(SELECT 1)')['db.operation.name']).toBeUndefined();
  });
});
