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
 * A statement with `$n` placeholders (as TypeORM's `escapeQueryWithParameters` writes them) and its
 * values, as one statement with the values inlined as literals. The statement's own text must hold
 * no `$n` other than its placeholders (no dollar-quoted strings).
 */
export function inlinePostgresParameters(sql: string, parameters: readonly unknown[]): string {
  return sql.replace(/\$(\d+)/g, (_match, index: string) => {
    const position = Number(index) - 1;
    if (position < 0 || position >= parameters.length) {
      throw new RangeError(`no value for placeholder $${index}`);
    }
    return postgresLiteral(parameters[position]);
  });
}
