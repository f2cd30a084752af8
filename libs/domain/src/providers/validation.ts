import { ErrorCode, ValidationError } from '../errors';

/**
 * Shared checks of the provider configuration parsers. Every parser collects all problems, each
 * prefixed by the field it concerns, and reports them together in one ValidationError (2005).
 */

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The problem naming the keys of `input` outside `allowed`, or null when there are none. */
export function unknownKeysProblem(
  input: Record<string, unknown>,
  allowed: readonly string[],
  prefix: string,
): string | null {
  const unknown = Object.keys(input).filter((key) => !allowed.includes(key));
  if (unknown.length === 0) {
    return null;
  }
  const label = unknown.length === 1 ? 'unknown field' : 'unknown fields';
  return `${prefix}${label} ${unknown.join(', ')} (allowed: ${allowed.join(', ')})`;
}

/** The own value of `key`, undefined when absent (never an inherited property). */
export function ownValue(input: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(input, key) ? input[key] : undefined;
}

/** The configuration ValidationError (2005) reporting the collected problems. */
export function configError(problems: readonly string[]): ValidationError {
  return new ValidationError(problems.join('; '), ErrorCode.ConfigValidationError);
}

/** Throws the collected problems as one configuration ValidationError; returns when there are none. */
export function throwIfProblems(problems: readonly string[]): void {
  if (problems.length > 0) {
    throw configError(problems);
  }
}

/** Whether `value` is an integer within the inclusive bounds (never NaN or infinite). */
export function isIntegerInRange(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}
