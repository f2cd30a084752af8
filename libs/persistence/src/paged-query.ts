import type { DataSource, EntityManager } from 'typeorm';

import type { CountCache } from './count-cache';

/** One page of a list read as raw rows, with the number of rows across all pages. */
export interface RawPage<R> {
  rows: R[];
  total: number;
}

/** What {@link pagedQuery} reads: a filtered, ordered window of one table's columns. */
export interface PagedQuery {
  /** Where to run it: a data source, or the manager of a unit of work. */
  source: DataSource | EntityManager;
  /** The table name, as the naming strategy spells it (snake case). */
  table: string;
  /** Column names to read (snake case); only these leave the database. */
  columns: readonly string[];
  /** SQL conditions joined with AND; named parameters (`:name`, `:...list`) come from `params`. */
  where?: readonly string[];
  params?: Record<string, unknown>;
  /** ORDER BY terms, e.g. `created_at ASC`; end with a unique column so pages never overlap. */
  orderBy: readonly string[];
  offset: number;
  limit: number;
  /** Remembers totals per filter between pages; its owner invalidates it on every write. */
  counts?: CountCache;
}

/** Column alias of the total riding on every row of the page (never a column of a table). */
const TOTAL = '__page_total';

/**
 * Reads one page as raw rows (no entity hydration) and counts the rows matching the same filter, in
 * one statement: the count is an uncorrelated scalar subquery, which SQLite and Postgres evaluate
 * once per statement and both answer from an index when one covers the filter. An empty page past
 * the end carries no total, so only then is the count asked for on its own. With `counts`, a total
 * still remembered for the filter is used instead and the statement reads the page alone.
 *
 * The rows carry the database's own values: decode them with {@link rawIso}, {@link rawJson},
 * {@link rawBool} and {@link rawNumber}, which accept what either dialect answers.
 */
export async function pagedQuery<R extends object>(query: PagedQuery): Promise<RawPage<R>> {
  const manager = 'manager' in query.source ? query.source.manager : query.source;
  const driver = manager.connection.driver;
  const where = query.where && query.where.length > 0 ? ` WHERE ${query.where.join(' AND ')}` : '';
  const from = `FROM ${driver.escape(query.table)}${where}`;
  const named = query.params ?? {};
  const key = query.counts ? `${from} ${JSON.stringify(named)}` : '';
  const known = query.counts?.get(key);
  const mark = query.counts?.mark() ?? 0;
  const columns = query.columns.map((c) => driver.escape(c)).join(', ');
  const counted = known === undefined ? `, (SELECT COUNT(*) ${from}) AS ${TOTAL}` : '';
  const [filtered, params] = driver.escapeQueryWithParameters(
    `SELECT ${columns}${counted} ${from} ORDER BY ${query.orderBy.join(', ')}`,
    named,
  );
  // The window is bound, not spliced in: each offset would otherwise be a new statement to prepare.
  const limit = driver.createParameter('limit', params.length);
  const offset = driver.createParameter('offset', params.length + 1);
  const bound: unknown[] = [...(params as unknown[]), query.limit, query.offset];
  const rows = await manager.query<(R & { [TOTAL]?: unknown })[]>(`${filtered} LIMIT ${limit} OFFSET ${offset}`, bound);
  let total = known;
  if (total === undefined) {
    const first = rows[0];
    total = first !== undefined ? rawNumber(first[TOTAL]) : query.offset === 0 ? 0 : await count(manager, from, named);
    for (const row of rows) {
      // The last column read: deleting it takes the row back to its previous shape, a cheap step.
      delete row[TOTAL];
    }
    query.counts?.set(key, total, mark);
  }
  return { rows, total };
}

async function count(manager: EntityManager, from: string, named: Record<string, unknown>): Promise<number> {
  const [sql, params] = manager.connection.driver.escapeQueryWithParameters(
    `SELECT COUNT(*) AS ${TOTAL} ${from}`,
    named,
  );
  const rows = await manager.query<Record<string, unknown>[]>(sql, params);
  return rawNumber(rows[0]?.[TOTAL]);
}

/**
 * A timestamp column as ISO 8601. Postgres answers a Date (the pg parser reads `timestamp` as UTC);
 * SQLite answers TypeORM's UTC text, `YYYY-MM-DD HH:MM:SS.SSS`, rewritten without a Date when it has
 * exactly that shape.
 */
export function rawIso(value: unknown): string {
  if (value instanceof Date) {
    return value.toISOString();
  }
  const text = String(value);
  if (text.length === 23 && text[10] === ' ' && text[19] === '.') {
    return `${text.slice(0, 10)}T${text.slice(11)}Z`;
  }
  const utc = /^\d{4}-\d\d-\d\d \d\d:\d\d(:\d\d(\.\d+)?)?$/.test(text) ? `${text.replace(' ', 'T')}Z` : text;
  return new Date(utc).toISOString();
}

/** A nullable timestamp column as ISO 8601 or null. */
export function rawIsoOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : rawIso(value);
}

/** A `simple-json` column (JSON text on both dialects) as its value; null stays null. */
export function rawJson<T>(value: unknown): T {
  // Empty lists are the most common value of these columns: a new one costs less than a parse.
  if (value === '[]') {
    return [] as T;
  }
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}

/** A boolean column: SQLite answers 0 or 1, Postgres a boolean. */
export function rawBool(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 't' || value === 'true';
}

/** A numeric column: Postgres answers COUNT(*), bigint and numeric as text. */
export function rawNumber(value: unknown): number {
  return typeof value === 'number' ? value : Number(value);
}
