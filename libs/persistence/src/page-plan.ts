import type { EntityManager } from 'typeorm';

/** What a page of one table reads, in the order it reads it: the parts {@link selectPlan} works out. */
export interface PageShape {
  table: string;
  columns: readonly string[];
  orderBy: readonly string[];
}

/** The parts of one table's page statements, worked out once per data source. */
export interface SelectPlan {
  /** The select list. */
  columns: string;
  /** The ORDER BY terms, each column qualified by its table. */
  orderBy: string;
  /** The table's primary key, qualified, when it is one column: what a deep page reads first. */
  key: string | null;
  /** The primary key's name among the columns read, when it is read: where a page's rows stand is kept by it. */
  keyColumn: string | null;
  /**
   * When the order is a total order of NOT NULL columns in one direction that ends with the primary
   * key: the condition that keeps the rows from the one whose key is bound as {@link ANCHOR} on, in
   * that order. Null otherwise.
   */
  seek: string | null;
}

/** The named parameter of {@link SelectPlan.seek}: the key of the row a page starts from. */
export const ANCHOR = '__page_anchor';

const ANCHOR_ALIAS = '__anchor';
const TIMESTAMP_TEXT = `'YYYY-MM-DD HH24:MI:SS.MS'`;
const ORDER_TERM = /^([A-Za-z_][A-Za-z0-9_]*)(?:\s+(ASC|DESC))?$/i;
const plans = new WeakMap<object, Map<string, SelectPlan>>();

/**
 * On Postgres a `timestamp` column is selected as `to_char(column, …) AS column`, the text SQLite
 * stores; every other column, and every column on SQLite, as itself. A bare column of ORDER BY is
 * qualified by its table, since on Postgres a bare name means the output column of that name
 * first, and sorting by the text would pass the column's index by.
 */
export function selectPlan(manager: EntityManager, page: PageShape): SelectPlan {
  const connection = manager.connection;
  let byQuery = plans.get(connection);
  if (!byQuery) {
    byQuery = new Map();
    plans.set(connection, byQuery);
  }
  const key = `${page.table}\u0000${page.columns.join(',')}\u0000${page.orderBy.join(',')}`;
  let plan = byQuery.get(key);
  if (!plan) {
    plan = buildPlan(manager, page);
    byQuery.set(key, plan);
  }
  return plan;
}

function buildPlan(manager: EntityManager, page: PageShape): SelectPlan {
  const connection = manager.connection;
  const driver = connection.driver;
  const table = driver.escape(page.table);
  const metadata = connection.entityMetadatas.find((entity) => entity.tableName === page.table);
  const timestamps = new Set<string>();
  if (connection.options.type === 'postgres') {
    for (const column of metadata?.columns ?? []) {
      if (driver.normalizeType(column) === 'timestamp without time zone') {
        timestamps.add(column.databaseName);
      }
    }
  }
  const columns = page.columns
    .map((name) => {
      const escaped = driver.escape(name);
      return timestamps.has(name) ? `to_char(${table}.${escaped}, ${TIMESTAMP_TEXT}) AS ${escaped}` : escaped;
    })
    .join(', ');
  const terms = page.orderBy.map((term) => ORDER_TERM.exec(term.trim()));
  const orderBy = page.orderBy
    .map((term, i) => {
      const match = terms[i];
      return match ? `${table}.${driver.escape(match[1] ?? '')}${match[2] ? ` ${match[2]}` : ''}` : term;
    })
    .join(', ');
  const primary = metadata?.primaryColumns.length === 1 ? metadata.primaryColumns[0]?.databaseName : undefined;
  const key = primary === undefined ? null : `${table}.${driver.escape(primary)}`;
  const keyColumn =
    primary !== undefined && page.columns.includes(primary) && !timestamps.has(primary) ? primary : null;
  // The rows from a given one on are those whose sort values come at or after its own: a row value
  // comparison, which both dialects answer from an index on the order's columns. It holds only when
  // the order has no ties (it ends with the key), no NULLs and a single direction.
  const names = terms.map((match) => match?.[1]);
  const directions = new Set(terms.map((match) => (match?.[2] ?? 'ASC').toUpperCase()));
  const notNull = names.every((name) => {
    const column = metadata?.columns.find((c) => c.databaseName === name);
    return column !== undefined && !column.isNullable;
  });
  let seek: string | null = null;
  if (key !== null && notNull && directions.size === 1 && names.at(-1) === primary) {
    const escaped = names.map((name) => driver.escape(name ?? ''));
    const op = directions.has('DESC') ? '<=' : '>=';
    const alias = driver.escape(ANCHOR_ALIAS);
    const own = escaped.map((name) => `${table}.${name}`).join(', ');
    const anchor = escaped.map((name) => `${alias}.${name}`).join(', ');
    const where = `${alias}.${driver.escape(primary ?? '')} = :${ANCHOR}`;
    seek = `(${own}) ${op} (SELECT ${anchor} FROM ${table} ${alias} WHERE ${where})`;
  }
  return { columns, orderBy, key, keyColumn, seek };
}
