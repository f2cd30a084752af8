/**
 * A timestamp as a bound parameter of a raw statement, stored the way TypeORM stores a `Date`
 * column: a Date on Postgres (written as UTC), UTC text `YYYY-MM-DD HH:MM:SS.SSS` on SQLite.
 */
export function timeParam(postgres: boolean, at: Date): Date | string {
  return postgres ? at : at.toISOString().replace('T', ' ').slice(0, 23);
}
