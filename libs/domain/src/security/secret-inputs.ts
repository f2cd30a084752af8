import { ErrorCode, ValidationError } from '../errors';
import { SENSITIVE_MASK } from '../settings/setting-definition';

/**
 * What a write request does to one stored secret. Every secret-bearing resource (providers today;
 * tool servers and sinks as they come) reads its secret fields through `secretChange` and checks a
 * move of its destination with `assertSecretsFollowDestination`, so the rules below hold in one place.
 */
export type SecretChange = { kind: 'keep' } | { kind: 'set'; value: string } | { kind: 'clear' };

const KEEP: SecretChange = Object.freeze({ kind: 'keep' });

/**
 * Reads a secret field of a write request.
 * - absent, `null` or the masked placeholder a read shows (`********`): the stored secret stays;
 * - `clear: true`: the stored secret is removed (with a value as well: 400);
 * - an empty or blank string: 400, a secret is never blank;
 * - any other string: the new secret.
 */
export function secretChange(wireName: string, value: unknown, clear?: boolean | null): SecretChange {
  const given = value !== undefined && value !== null;
  if (clear === true) {
    if (given) {
      // The generic 2000 stays: clients already rely on it for this refusal.
      throw new ValidationError(
        `${wireName} and clear_${wireName} cannot be given together`,
        ErrorCode.ValidationError,
      );
    }
    return { kind: 'clear' };
  }
  if (!given) {
    return KEEP;
  }
  if (typeof value !== 'string') {
    throw new ValidationError(`${wireName} must be a string`, ErrorCode.ValidationError);
  }
  if (value.trim() === '') {
    throw new ValidationError(`${wireName} must not be empty or blank`, ErrorCode.ValidationError);
  }
  if (value === SENSITIVE_MASK) {
    return KEEP;
  }
  return { kind: 'set', value };
}

/** The secret a change leaves stored. */
export function applySecretChange(change: SecretChange, stored: string | undefined): string | undefined {
  switch (change.kind) {
    case 'keep':
      return stored;
    case 'clear':
      return undefined;
    case 'set':
      return change.value;
  }
}

/** One secret of a resource as a request meets it: its wire name, whether one is stored, the change. */
export interface SecretInput {
  wireName: string;
  stored: boolean;
  change: SecretChange;
}

/** Wire names of the secrets a request really changes (set or cleared), as the audit trail records them. */
export function changedSecretNames(inputs: readonly SecretInput[]): string[] {
  return inputs.flatMap((input) => {
    switch (input.change.kind) {
      case 'keep':
        return [];
      case 'clear':
        return input.stored ? [`clear_${input.wireName}`] : [];
      case 'set':
        return [input.wireName];
    }
  });
}

/** A place a resource sends its secrets to: the field's wire name and its value before and after. */
export interface SecretDestination {
  wireName: string;
  before: string | null;
  after: string | null;
}

/**
 * Credentials follow their destination: a change of where a resource sends its secrets must give
 * every secret that stays stored again in the same request, as a real value, or clear it. Otherwise
 * anyone allowed to edit the resource could point it at a host of their own and have the server send
 * it the stored secret. Absent, `null` and the masked placeholder do not count as given.
 */
export function assertSecretsFollowDestination(
  resource: string,
  destinations: readonly SecretDestination[],
  inputs: readonly SecretInput[],
  code: ErrorCode,
): void {
  const moved = destinations.filter((d) => d.before !== d.after);
  if (moved.length === 0) {
    return;
  }
  const carried = inputs.filter((input) => input.stored && input.change.kind === 'keep');
  if (carried.length > 0) {
    const names = carried.map((input) => input.wireName).join(', ');
    const fields = moved.map((d) => d.wireName).join(' and ');
    throw new ValidationError(
      `this change of ${fields} moves where the ${resource}'s credentials are sent; give ${names} again ` +
        'in the same request, or clear them',
      code,
    );
  }
}
