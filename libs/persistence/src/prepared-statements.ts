import pg from 'pg';

/** Limits of {@link preparingClient}. */
export interface PreparedStatementLimits {
  /** A statement text is prepared from this use in the process on (1: from its first). */
  threshold?: number;
  /** Statements one connection keeps prepared; later texts run unprepared on it. */
  perConnection?: number;
  /** Distinct texts the process counts and names; when full, new texts run unprepared. */
  texts?: number;
}

const DEFAULTS: Required<PreparedStatementLimits> = { threshold: 2, perConnection: 100, texts: 2_000 };

/**
 * The process-wide names of statement texts: a text is named once it has been used `threshold`
 * times, and keeps its name while the process lives, so every connection prepares it under one name.
 */
export class StatementNames {
  private readonly uses = new Map<string, number>();
  private readonly names = new Map<string, string>();
  private readonly limits: Required<PreparedStatementLimits>;

  constructor(limits: PreparedStatementLimits = {}) {
    this.limits = { ...DEFAULTS, ...limits };
  }

  get perConnection(): number {
    return this.limits.perConnection;
  }

  /** How many texts have a name. */
  get size(): number {
    return this.names.size;
  }

  /** The text's name if it is used often enough to be prepared; null to run it unprepared. */
  nameOf(text: string): string | null {
    const known = this.names.get(text);
    if (known !== undefined) {
      return known;
    }
    const used = (this.uses.get(text) ?? 0) + 1;
    if (used < this.limits.threshold) {
      if (this.uses.size < this.limits.texts) {
        this.uses.set(text, used);
      }
      return null;
    }
    if (this.names.size >= this.limits.texts) {
      return null;
    }
    this.uses.delete(text);
    const name = `synthorg_${this.names.size + 1}`;
    this.names.set(text, name);
    return name;
  }
}

type QueryCallback = (error: Error, result: pg.QueryResult) => void;

/**
 * A pg client class, handed to the pool (its `Client` option), that runs the service's repeated
 * parameterised statements as named prepared statements: Postgres then parses, analyses and plans
 * such a text once per connection instead of on every execution (after five executions it may keep
 * one generic plan, when that plan costs no more than the custom ones). A statement's first use in
 * the process runs unprepared, so one-off texts never take a slot; a connection keeps at most
 * `perConnection` statements, after which its further texts run unprepared; the pool's idle timeout
 * retires connections, and their statements with them. Statements without parameters (transaction
 * control, simple-protocol scripts) and query objects pass through unchanged.
 *
 * A schema change under a prepared statement (a migration of another replica, a restore of an older
 * backup) can change the type of its result, which Postgres refuses for a prepared statement
 * ("cached plan must not change result type", before anything runs). The client then drops the
 * statement and runs that text unprepared on this connection from then on; outside a transaction it
 * also runs the failed call again, unprepared, so the caller never sees the error. Inside one the
 * error stands (the transaction is already aborted), and the caller's retry succeeds.
 *
 * A connection pooler in transaction mode (PgBouncer before 1.21, or without
 * `max_prepared_statements`) cannot carry named statements between the server connections it
 * multiplexes: turn this off there (`SYNTHORG_DB_PREPARED_STATEMENTS=false`).
 */
export function preparingClient(names: StatementNames): typeof pg.Client {
  return class PreparingClient extends pg.Client {
    private readonly prepared = new Set<string>();
    /** Texts whose prepared statement went stale here: they run unprepared on this connection. */
    private readonly unprepared = new Set<string>();

    override query(config: unknown, values?: unknown, callback?: unknown): never {
      const run = super.query.bind(this) as (...args: unknown[]) => unknown;
      if (typeof config !== 'string' || !Array.isArray(values) || values.length === 0) {
        return run(config, values, callback) as never;
      }
      const name = this.nameFor(config);
      if (name === null) {
        return run(config, values, callback) as never;
      }
      const named: pg.QueryConfig = { name, text: config, values: values as unknown[] };
      if (typeof callback === 'function') {
        const done = callback as QueryCallback;
        return run(named, (error: Error | null, result: pg.QueryResult) => {
          if (error && this.wentStale(error, config, name)) {
            run(config, values, done);
            return;
          }
          done(error as Error, result);
        }) as never;
      }
      return (run(named) as Promise<pg.QueryResult>).catch((error: Error) => {
        if (this.wentStale(error, config, name)) {
          return run(config, values);
        }
        throw error;
      }) as never;
    }

    private nameFor(text: string): string | null {
      if (this.unprepared.has(text)) {
        return null;
      }
      const name = names.nameOf(text);
      if (name === null || this.prepared.has(name)) {
        return name;
      }
      if (this.prepared.size >= names.perConnection) {
        return null;
      }
      this.prepared.add(name);
      return name;
    }

    /**
     * True when `error` is Postgres refusing the prepared statement's new result type and the call
     * may simply run again (no transaction open: nothing of it ran). The statement is dropped either
     * way, and its text runs unprepared here from now on.
     */
    private wentStale(error: Error, text: string, name: string): boolean {
      if ((error as { code?: unknown }).code !== '0A000' || !STALE_PLAN.test(error.message)) {
        return false;
      }
      this.unprepared.add(text);
      (super.query.bind(this) as (text: string) => Promise<unknown>)(`DEALLOCATE ${name}`).catch(() => undefined);
      return (this as unknown as { _txStatus?: unknown })._txStatus === 'I';
    }
  };
}

const STALE_PLAN = /cached plan must not change result type/;
