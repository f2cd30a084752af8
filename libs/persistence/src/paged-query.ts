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
  /**
   * The table's unique column the order ends with (`id`). With it, on Postgres, a page at least
   * {@link DEFERRED_FROM_OFFSET} rows deep reads its keys first, from an index that covers the filter
   * and the order, and then only its own rows: the rows it skips are never read from the table.
   */
  key?: string;
  /** Remembers totals per filter between pages; its owner invalidates it on every write. */
  counts?: CountCache;
}

/** Column alias of the total riding on every row of the page (never a column of a table). */
const TOTAL = '__page_total';
/** Where a page statement's LIMIT and OFFSET go: after every other parameter of the statement. */
const WINDOW = '/* window */';
/** How deep a page with a `key` must be before its keys are read on their own. */
export const DEFERRED_FROM_OFFSET = 1000;

type Manager = EntityManager;
type Row<R> = R & { [TOTAL]?: unknown };

/**
 * Reads one page as raw rows (no entity hydration) and counts the rows matching the same filter, in
 * one statement: the count is an uncorrelated scalar subquery, which SQLite and Postgres evaluate
 * once per statement and both answer from an index when one covers the filter. An empty page past
 * the end carries no total, so only then is the count asked for on its own.
 *
 * With `counts`, a total the cache still holds is answered instead and the statement reads the page
 * alone; a total past its time limit is answered while one background count refreshes it; and a
 * request that finds a count of its filter already being read waits for that one rather than
 * counting again (see {@link CountCache}). With `counts` and a data source (not a unit of work's
 * manager), a request for a page being read right now joins that read: its callers share the rows,
 * which are therefore read-only.
 *
 * The rows carry the database's own values: decode them with {@link rawIso}, {@link rawJson},
 * {@link rawBool} and {@link rawNumber}, which accept what either dialect answers. Timestamp columns
 * arrive as UTC text of one shape on both dialects (`YYYY-MM-DD HH:MM:SS.SSS`): Postgres formats them
 * itself, so no Date is built per row only to be written back as text.
 */
export function pagedQuery<R extends object>(query: PagedQuery): Promise<RawPage<R>> {
  const manager = 'manager' in query.source ? query.source.manager : query.source;
  const where = query.where && query.where.length > 0 ? ` WHERE ${query.where.join(' AND ')}` : '';
  const from = `FROM ${manager.connection.driver.escape(query.table)}${where}`;
  const named = query.params ?? {};
  const counts = query.counts;
  if (!counts) {
    return readPage<R>(manager, query, from, named, true).then((rows) => withTotal(manager, query, from, named, rows));
  }
  // The filter's key: its total is remembered under it.
  const filter = `${from} ${JSON.stringify(named)}`;
  const read = (): Promise<RawPage<R>> => readCounted<R>(manager, query, from, named, counts, filter);
  if (!('manager' in query.source)) {
    return read(); // inside a unit of work: its reads are its own
  }
  // Identical pages asked for at once share one read (and its rows).
  const window = [query.columns.join(), query.orderBy.join(), query.offset, query.limit].join('\u0000');
  return counts.share(`${filter}\u0000${window}`, read);
}

/** A page whose filter's total the count cache may know, may be counting, or has to count now. */
async function readCounted<R extends object>(
  manager: Manager,
  query: PagedQuery,
  from: string,
  named: Record<string, unknown>,
  counts: CountCache,
  key: string,
): Promise<RawPage<R>> {
  const read = (counted: boolean): Promise<Row<R>[]> => readPage<R>(manager, query, from, named, counted);
  const mark = counts.mark();
  const known = counts.lookup(key);
  if (known.total !== undefined) {
    if (known.stale && !counts.refreshing(key)) {
      // Outside any unit of work the caller may have passed: the refresh outlives this request.
      const refresh = count(manager.connection.manager, from, named).catch(() => undefined);
      counts.track(key, mark, refresh);
    }
    return { rows: await read(false), total: known.total };
  }
  if (known.pending) {
    const [rows, shared] = await Promise.all([read(false), known.pending.catch(() => undefined)]);
    return { rows, total: shared ?? (await count(manager, from, named)) };
  }
  const page = read(true).then((rows) => withTotal<R>(manager, query, from, named, rows));
  counts.track(
    key,
    mark,
    page.then((p) => p.total),
  );
  return page;
}

/** The page's statement; `counted` adds the filter's total to every row. */
async function readPage<R extends object>(
  manager: Manager,
  query: PagedQuery,
  from: string,
  named: Record<string, unknown>,
  counted: boolean,
): Promise<Row<R>[]> {
  const driver = manager.connection.driver;
  const plan = selectPlan(manager, query);
  const total = counted ? `, (SELECT COUNT(*) ${from}) AS ${TOTAL}` : '';
  let sql = `SELECT ${plan.columns}${total} ${from} ORDER BY ${plan.orderBy} ${WINDOW}`;
  if (
    query.key !== undefined &&
    query.offset >= DEFERRED_FROM_OFFSET &&
    manager.connection.options.type === 'postgres'
  ) {
    // The window's keys from the index alone (skipped rows included), then the page's own rows.
    // SQLite needs no help: it seeks a table row only when a column of it is read, and the rows
    // an OFFSET skips never are.
    const table = driver.escape(query.table);
    const key = driver.escape(query.key);
    const keys = `SELECT ${table}.${key} ${from} ORDER BY ${plan.orderBy} ${WINDOW}`;
    sql = `SELECT ${plan.columns}${total} FROM ${table} WHERE ${table}.${key} IN (${keys}) ORDER BY ${plan.orderBy}`;
  }
  // The count comes before the window in either statement: on SQLite parameters bind in the order
  // they appear, and the window's are bound last.
  const [filtered, params] = driver.escapeQueryWithParameters(sql, named);
  // The window is bound, not spliced in: each offset would otherwise be a new statement to prepare.
  const limit = driver.createParameter('limit', params.length);
  const offset = driver.createParameter('offset', params.length + 1);
  const bound: unknown[] = [...(params as unknown[]), query.limit, query.offset];
  return manager.query<Row<R>[]>(filtered.replace(WINDOW, `LIMIT ${limit} OFFSET ${offset}`), bound);
}

/** The rows of a counted statement without their total column, and that total. */
async function withTotal<R extends object>(
  manager: Manager,
  query: PagedQuery,
  from: string,
  named: Record<string, unknown>,
  rows: Row<R>[],
): Promise<RawPage<R>> {
  const total = rows[0] !== undefined || query.offset === 0 ? totalOf(rows) : await count(manager, from, named);
  for (const row of rows) {
    // The last column read: deleting it takes the row back to its previous shape, a cheap step.
    delete row[TOTAL];
  }
  return { rows, total };
}

function totalOf(rows: readonly { [TOTAL]?: unknown }[]): number {
  const first = rows[0];
  return first === undefined ? 0 : rawNumber(first[TOTAL]);
}

async function count(manager: Manager, from: string, named: Record<string, unknown>): Promise<number> {
  const [sql, params] = manager.connection.driver.escapeQueryWithParameters(
    `SELECT COUNT(*) AS ${TOTAL} ${from}`,
    named,
  );
  const rows = await manager.query<Record<string, unknown>[]>(sql, params);
  return rawNumber(rows[0]?.[TOTAL]);
}

/** The select list and ORDER BY of one table's page, worked out once per data source. */
interface SelectPlan {
  columns: string;
  orderBy: string;
}

const TIMESTAMP_TEXT = `'YYYY-MM-DD HH24:MI:SS.MS'`;
const ORDER_TERM = /^([A-Za-z_][A-Za-z0-9_]*)(\s+(?:ASC|DESC))?$/i;
const plans = new WeakMap<object, Map<string, SelectPlan>>();

/**
 * On Postgres a `timestamp` column is selected as `to_char(column, …) AS column`, the text SQLite
 * stores; every other column, and every column on SQLite, as itself. A bare column of ORDER BY is
 * qualified by its table, since on Postgres a bare name means the output column of that name
 * first, and sorting by the text would pass the column's index by.
 */
function selectPlan(manager: Manager, query: PagedQuery): SelectPlan {
  const connection = manager.connection;
  let byQuery = plans.get(connection);
  if (!byQuery) {
    byQuery = new Map();
    plans.set(connection, byQuery);
  }
  const key = `${query.table}\u0000${query.columns.join(',')}\u0000${query.orderBy.join(',')}`;
  let plan = byQuery.get(key);
  if (!plan) {
    plan = buildPlan(manager, query);
    byQuery.set(key, plan);
  }
  return plan;
}

function buildPlan(manager: Manager, query: PagedQuery): SelectPlan {
  const connection = manager.connection;
  const driver = connection.driver;
  const table = driver.escape(query.table);
  const timestamps = new Set<string>();
  if (connection.options.type === 'postgres') {
    const metadata = connection.entityMetadatas.find((entity) => entity.tableName === query.table);
    for (const column of metadata?.columns ?? []) {
      if (driver.normalizeType(column) === 'timestamp without time zone') {
        timestamps.add(column.databaseName);
      }
    }
  }
  const columns = query.columns
    .map((name) => {
      const escaped = driver.escape(name);
      return timestamps.has(name) ? `to_char(${table}.${escaped}, ${TIMESTAMP_TEXT}) AS ${escaped}` : escaped;
    })
    .join(', ');
  const orderBy = query.orderBy
    .map((term) => {
      const match = ORDER_TERM.exec(term.trim());
      return match ? `${table}.${driver.escape(match[1] ?? '')}${match[2] ?? ''}` : term;
    })
    .join(', ');
  return { columns, orderBy };
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

/** A timestamp column as a Date: Postgres answers one already, SQLite the stored text. */
export function rawDate(value: unknown): Date {
  return value instanceof Date ? value : new Date(rawIso(value));
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

/** A nullable numeric column as a number or null. */
export function rawNumberOrNull(value: unknown): number | null {
  return value === null || value === undefined ? null : rawNumber(value);
}
