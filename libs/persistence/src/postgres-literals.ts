import { escapeLiteral } from 'pg';

/**
 * A bound value written as a Postgres literal, for the few statements that must travel in one
 * simple-protocol string with others (which takes no parameters): null, finite numbers, booleans,
 * dates (ISO 8601 in UTC, as the driver sends them) and text, escaped by the driver's own
 * `escapeLiteral`. Anything else is refused rather than guessed at.
 */
export function postgresLiteral(value: unknown): string {
  if (value === null || value === undefined) {
    return 'NULL';
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) {
      throw new TypeError(`not a finite number: ${value}`);
    }
    return String(value);
  }
  if (typeof value === 'boolean') {
    return value ? 'TRUE' : 'FALSE';
  }
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) {
      throw new TypeError('invalid date');
    }
    return escapeLiteral(value.toISOString());
  }
  if (typeof value === 'string') {
    return escapeLiteral(value);
  }
  throw new TypeError(`no literal for a ${typeof value}`);
}

/**
 * Server-side prepared statements for the statements of simple-protocol scripts, which take no
 * parameters and so cannot use the driver's named statements: the first script a session runs with
 * a statement prepares it there (`PREPARE name AS …`, its `$n` typed from their context), and every
 * script calls it with its values as literals (`EXECUTE name(…)`), so the server parses and plans
 * it once per session instead of on every call. A session is whatever object stands for one server
 * connection (the pg client).
 */
export class ScriptStatements {
  private readonly sessions = new WeakMap<object, Map<string, string>>();
  private sequence = 0;

  constructor(private readonly prefix: string) {}

  /**
   * The script text that runs `sql` with `parameters` on `session`, with what to call once it has
   * run: `ran` without error (only then does the session count as having the statement), `failed`
   * otherwise. After a failed script the next one prepares under a new name: a PREPARE is not undone
   * by a rollback, so the old name may or may not exist there, and a statement that did exist may
   * have gone stale (a schema change that altered its result type, which Postgres refuses for a
   * prepared statement).
   */
  call(
    session: object,
    sql: string,
    parameters: readonly unknown[],
  ): { text: string; ran: () => void; failed: () => void } {
    let prepared = this.sessions.get(session);
    if (!prepared) {
      prepared = new Map();
      this.sessions.set(session, prepared);
    }
    const sessionStatements = prepared;
    const known = prepared.get(sql);
    const name = known ?? `${this.prefix}_${++this.sequence}`;
    const args = parameters.length > 0 ? `(${parameters.map(postgresLiteral).join(', ')})` : '';
    const execute = `EXECUTE ${name}${args}`;
    const failed = () => {
      sessionStatements.delete(sql);
    };
    if (known !== undefined) {
      return { text: execute, ran: () => undefined, failed };
    }
    return { text: `PREPARE ${name} AS ${sql}; ${execute}`, ran: () => sessionStatements.set(sql, name), failed };
  }
}
