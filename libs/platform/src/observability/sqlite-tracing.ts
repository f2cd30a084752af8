import { createRequire } from 'node:module';

import { type Attributes, context, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';

import { TRACER_NAME } from './tracing';

/** What this wrapper needs of a better-sqlite3 statement (the package ships no type declarations). */
interface SqliteStatement {
  run: Execute;
  get: Execute;
  all: Execute;
}

/** A statement's method that runs it, called with the statement as `this`. */
type Execute = (this: SqliteStatement, ...params: unknown[]) => unknown;

/** The better-sqlite3 library: its Database class, whose `prepare` answers statements. */
export type SqliteLibrary = new (...args: never[]) => { prepare(source: string): unknown };

/** The methods that run a statement and answer at once (`iterate` hands out rows lazily, and is not traced). */
const EXECUTING = ['run', 'get', 'all'] as const;

/**
 * The better-sqlite3 library, with a span around every execution of a prepared statement: a CLIENT
 * span of the active trace with the database semantic conventions — `db.system.name` `sqlite`,
 * `db.operation.name` (the statement's first keyword) and `db.query.text`, the statement as
 * prepared: bound values travel apart from it and never appear, and quoted literals written into the
 * text are replaced by `?`. As Postgres statements are, a statement is traced only inside a traced
 * request or run (a span is active). Handed to TypeORM's driver (its `driver` option) only when
 * tracing is on: without it nothing of this runs. The attributes are worked out once per prepared
 * statement, which TypeORM keeps in its statement cache.
 */
export function tracedSqliteLibrary(library: SqliteLibrary = loadSqlite()): SqliteLibrary {
  const tracer = trace.getTracer(TRACER_NAME);
  return class TracedDatabase extends library {
    override prepare(source: string): unknown {
      const statement = super.prepare(source) as SqliteStatement;
      const operation = operationOf(source);
      const attributes = statementAttributes(source, operation);
      const name = operation ?? 'sqlite';
      for (const method of EXECUTING) {
        const execute = statement[method];
        statement[method] = function traced(this: SqliteStatement, ...params: unknown[]): unknown {
          const parent = context.active();
          if (trace.getSpan(parent) === undefined) {
            return execute.apply(this, params);
          }
          const span = tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes }, parent);
          try {
            return execute.apply(this, params);
          } catch (error) {
            failed(span, error);
            throw error;
          } finally {
            span.end();
          }
        };
      }
      return statement;
    }
  };
}

/** The statement's first keyword (`SELECT`, `INSERT`, `BEGIN`, …), or undefined. */
function operationOf(source: string): string | undefined {
  return /^\s*([A-Za-z]+)/.exec(source)?.[1]?.toUpperCase();
}

/** The span attributes of one statement text. */
export function statementAttributes(source: string, operation = operationOf(source)): Attributes {
  return {
    'db.system.name': 'sqlite',
    ...(operation ? { 'db.operation.name': operation } : {}),
    'db.query.text': withoutLiterals(source),
  };
}

/** The text with its string and blob literals ('…', X'…') replaced by `?`; identifiers ("…") stay. */
export function withoutLiterals(source: string): string {
  return source.includes("'") ? source.replace(/(?:\b[xX])?'(?:[^']|'')*'/g, '?') : source;
}

function failed(span: Span, error: unknown): void {
  const code = (error as { code?: unknown } | null)?.code;
  span.setAttribute('error.type', typeof code === 'string' ? code : error instanceof Error ? error.name : 'error');
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : undefined });
}

function loadSqlite(): SqliteLibrary {
  return createRequire(__filename)('better-sqlite3') as SqliteLibrary;
}
