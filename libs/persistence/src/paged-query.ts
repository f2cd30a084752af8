import type { DataSource, EntityManager } from 'typeorm';

import type { CountCache } from './count-cache';
import { ANCHOR, selectPlan, type SelectPlan } from './page-plan';
import type { PagePosition } from './page-positions';

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
  /**
   * ORDER BY terms, e.g. `created_at ASC`; end with a unique column so pages never overlap. When they
   * end with the primary key, in one direction, over NOT NULL columns, a deep page with `counts` can
   * start from a row whose place is known (see {@link pagedQuery}).
   */
  orderBy: readonly string[];
  offset: number;
  limit: number;
  /** Remembers totals per filter between pages; its owner invalidates it on every write. */
  counts?: CountCache;
}

/** Column alias of the total riding on every row of the page (never a column of a table). */
const TOTAL = '__page_total';
/** Where a page statement's LIMIT and OFFSET go: after every other parameter of the statement. */
const WINDOW = '/* window */';
/**
 * How many rows a page must skip before its keys are read on their own, and how deep a page must be
 * before it starts from a row whose place is known.
 */
export const DEFERRED_FROM_OFFSET = 1000;

type Manager = EntityManager;
type Row<R> = R & { [TOTAL]?: unknown };

/** The filter of a list: its conditions, their parameters, and its FROM clause. */
interface Filter {
  conditions: readonly string[];
  named: Record<string, unknown>;
  from: string;
}

/** Where the places of a filter's rows are kept, under which key (data sources only: see {@link pagedQuery}). */
interface Places {
  counts: CountCache;
  key: string;
}

/**
 * Reads one page as raw rows (no entity hydration) and counts the rows matching the same filter, in
 * one statement: the count is an uncorrelated scalar subquery, which SQLite and Postgres evaluate
 * once per statement and both answer from an index when one covers the filter. An empty page past
 * the end carries no total, so only then is the count asked for on its own.
 *
 * A page that skips {@link DEFERRED_FROM_OFFSET} rows or more, of a table whose primary key is one
 * column, reads the keys of its window first, from the index that covers the filter and the order
 * (the skipped rows are never read from the table, nor sorted whole where no index gives the order),
 * and then only its own rows, by key.
 *
 * With `counts`, a total the cache still holds is answered instead and the statement reads the page
 * alone; a total past its time limit is answered while one background count refreshes it; and a
 * request that finds a count of its filter already being read waits for that one rather than
 * counting again (see {@link CountCache}). With `counts` and a data source (not a unit of work's
 * manager), a request for a page being read right now joins that read: its callers share the rows,
 * which are therefore read-only. Such pages also remember where their last row stands; a page at
 * least {@link DEFERRED_FROM_OFFSET} deep then starts from the nearest row known before it (the
 * rows whose sort values come at or after that row's, from the index) and skips only the rows in
 * between, rather than every row before it. Every write the cache hears of forgets those places
 * (see {@link CountCache.positionBefore}); a read that used one and crossed a write, or found no
 * row, is read again from the start.
 *
 * The rows carry the database's own values: decode them with {@link rawIso}, {@link rawJson},
 * {@link rawBool} and {@link rawNumber}, which accept what either dialect answers. Timestamp columns
 * arrive as UTC text of one shape on both dialects (`YYYY-MM-DD HH:MM:SS.SSS`): Postgres formats them
 * itself, so no Date is built per row only to be written back as text.
 */
export function pagedQuery<R extends object>(query: PagedQuery): Promise<RawPage<R>> {
  const manager = 'manager' in query.source ? query.source.manager : query.source;
  const conditions = query.where ?? [];
  const where = conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : '';
  const filter: Filter = {
    conditions,
    named: query.params ?? {},
    from: `FROM ${manager.connection.driver.escape(query.table)}${where}`,
  };
  const counts = query.counts;
  if (!counts) {
    return readWindow<R>(manager, query, filter, true).then((rows) => withTotal(manager, query, filter, rows));
  }
  // The filter's key: its total is remembered under it.
  const key = `${filter.from} ${JSON.stringify(filter.named)}`;
  if (!('manager' in query.source)) {
    // Inside a unit of work: its reads are its own, and so are the places of its rows.
    return readCounted<R>(manager, query, filter, counts, key, undefined);
  }
  const places: Places = { counts, key: `${key}\u0000${query.orderBy.join()}` };
  const read = (): Promise<RawPage<R>> => readCounted<R>(manager, query, filter, counts, key, places);
  // Identical pages asked for at once share one read (and its rows).
  const window = [query.columns.join(), query.orderBy.join(), query.offset, query.limit].join('\u0000');
  return counts.share(`${key}\u0000${window}`, read);
}

/** A page whose filter's total the count cache may know, may be counting, or has to count now. */
async function readCounted<R extends object>(
  manager: Manager,
  query: PagedQuery,
  filter: Filter,
  counts: CountCache,
  key: string,
  places: Places | undefined,
): Promise<RawPage<R>> {
  const read = (counted: boolean): Promise<Row<R>[]> => readWindow<R>(manager, query, filter, counted, places);
  const mark = counts.mark();
  const known = counts.lookup(key);
  if (known.total !== undefined) {
    if (known.stale && !counts.refreshing(key)) {
      // Outside any unit of work the caller may have passed: the refresh outlives this request.
      const refresh = count(manager.connection.manager, filter).catch(() => undefined);
      counts.track(key, mark, refresh);
    }
    return { rows: await read(false), total: known.total };
  }
  if (known.pending) {
    const [rows, shared] = await Promise.all([read(false), known.pending.catch(() => undefined)]);
    return { rows, total: shared ?? (await count(manager, filter)) };
  }
  const page = read(true).then((rows) => withTotal<R>(manager, query, filter, rows));
  counts.track(
    key,
    mark,
    page.then((p) => p.total),
  );
  return page;
}

/**
 * The page's rows: from the nearest row known before it when `places` knows one and the page is deep
 * enough, else from the start of the filter's order; `places` then learns where its last row stands.
 */
async function readWindow<R extends object>(
  manager: Manager,
  query: PagedQuery,
  filter: Filter,
  counted: boolean,
  places?: Places,
): Promise<Row<R>[]> {
  const plan = selectPlan(manager, query);
  const known = plan.keyColumn !== null && plan.seek !== null ? places : undefined;
  const mark = known?.counts.mark() ?? 0;
  const start =
    query.offset >= DEFERRED_FROM_OFFSET ? known?.counts.positionBefore(known.key, query.offset) : undefined;
  let rows: Row<R>[] | undefined;
  if (known && start) {
    rows = await readPage<R>(manager, query, plan, filter, counted, start);
    // No row from the known one: it was deleted, or the page is past the end. A write while reading:
    // the place may have moved. Either way the page is read from the start.
    if (rows.length === 0 || known.counts.mark() !== mark) {
      rows = undefined;
    }
  }
  rows ??= await readPage<R>(manager, query, plan, filter, counted, undefined);
  const last = rows.at(-1);
  if (known && last !== undefined) {
    const value = (last as Record<string, unknown>)[plan.keyColumn ?? ''];
    known.counts.rememberPosition(known.key, mark, query.offset + rows.length - 1, value);
  }
  return rows;
}

/** The page's statement, from `start` when given; `counted` adds the filter's total to every row. */
async function readPage<R extends object>(
  manager: Manager,
  query: PagedQuery,
  plan: SelectPlan,
  filter: Filter,
  counted: boolean,
  start: PagePosition | undefined,
): Promise<Row<R>[]> {
  const driver = manager.connection.driver;
  const table = driver.escape(query.table);
  const conditions = start && plan.seek !== null ? [...filter.conditions, plan.seek] : filter.conditions;
  const named = start ? { ...filter.named, [ANCHOR]: start.key } : filter.named;
  const skip = query.offset - (start?.offset ?? 0);
  const where = conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : '';
  const total = counted ? `, (SELECT COUNT(*) ${filter.from}) AS ${TOTAL}` : '';
  let sql = `SELECT ${plan.columns}${total} FROM ${table}${where} ORDER BY ${plan.orderBy} ${WINDOW}`;
  if (plan.key !== null && skip >= DEFERRED_FROM_OFFSET) {
    // The window's keys from the index alone (skipped rows included), then the page's own rows.
    const keys = `SELECT ${plan.key} FROM ${table}${where} ORDER BY ${plan.orderBy} ${WINDOW}`;
    sql = `SELECT ${plan.columns}${total} FROM ${table} WHERE ${plan.key} IN (${keys}) ORDER BY ${plan.orderBy}`;
  }
  // The count comes before the window in either statement: on SQLite parameters bind in the order
  // they appear, and the window's are bound last.
  const [filtered, params] = driver.escapeQueryWithParameters(sql, named);
  // The window is bound, not spliced in: each offset would otherwise be a new statement to prepare.
  const limit = driver.createParameter('limit', params.length);
  const offset = driver.createParameter('offset', params.length + 1);
  const bound: unknown[] = [...(params as unknown[]), query.limit, skip];
  return manager.query<Row<R>[]>(filtered.replace(WINDOW, `LIMIT ${limit} OFFSET ${offset}`), bound);
}

/** The rows of a counted statement without their total column, and that total. */
async function withTotal<R extends object>(
  manager: Manager,
  query: PagedQuery,
  filter: Filter,
  rows: Row<R>[],
): Promise<RawPage<R>> {
  const total = rows[0] !== undefined || query.offset === 0 ? totalOf(rows) : await count(manager, filter);
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

async function count(manager: Manager, filter: Filter): Promise<number> {
  const [sql, params] = manager.connection.driver.escapeQueryWithParameters(
    `SELECT COUNT(*) AS ${TOTAL} ${filter.from}`,
    filter.named,
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
