import { ErrorCode } from '../errors';
import { SENSITIVE_MASK } from '../settings/setting-definition';
import {
  applySecretChange,
  assertSecretsFollowDestination,
  changedSecretNames,
  type SecretInput,
  secretChange,
} from './secret-inputs';

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return null;
}

describe(secretChange.name, () => {
  it.each([undefined, null, SENSITIVE_MASK])('should keep the stored secret for %p', (value) => {
    expect(secretChange('api_key', value)).toEqual({ kind: 'keep' });
  });

  it.each(['', ' ', '\t\n'])('should refuse the blank value %p (2000)', (value) => {
    expect(thrown(() => secretChange('api_key', value))).toMatchObject({ code: ErrorCode.ValidationError });
  });

  it('should refuse a value together with its clear flag, and clear without one', () => {
    expect(thrown(() => secretChange('api_key', 'k', true))).toMatchObject({ code: ErrorCode.ValidationError });
    expect(secretChange('api_key', null, true)).toEqual({ kind: 'clear' });
    expect(secretChange('api_key', undefined, true)).toEqual({ kind: 'clear' });
  });

  it('should set a real value, surrounding spaces and all', () => {
    expect(secretChange('api_key', ' sk-1 ')).toEqual({ kind: 'set', value: ' sk-1 ' });
  });

  it('should refuse a value that is not a string', () => {
    expect(thrown(() => secretChange('api_key', 42))).toMatchObject({ code: ErrorCode.ValidationError });
  });
});

describe(applySecretChange.name, () => {
  it('should keep, clear or replace the stored secret', () => {
    expect(applySecretChange({ kind: 'keep' }, 'old')).toBe('old');
    expect(applySecretChange({ kind: 'clear' }, 'old')).toBeUndefined();
    expect(applySecretChange({ kind: 'set', value: 'new' }, 'old')).toBe('new');
  });
});

describe(changedSecretNames.name, () => {
  it('should name only what really changes', () => {
    const inputs: SecretInput[] = [
      { wireName: 'api_key', stored: true, change: { kind: 'keep' } },
      { wireName: 'token', stored: false, change: { kind: 'clear' } },
      { wireName: 'secret', stored: true, change: { kind: 'clear' } },
      { wireName: 'header', stored: false, change: { kind: 'set', value: 'v' } },
    ];
    expect(changedSecretNames(inputs)).toEqual(['clear_secret', 'header']);
  });
});

describe(assertSecretsFollowDestination.name, () => {
  const stay = [{ wireName: 'base_url', before: 'https://api.example/v1', after: 'https://api.example/v1' }];
  const move = [{ wireName: 'base_url', before: 'https://api.example/v1', after: 'https://evil.example/v1' }];
  const key = (change: SecretInput['change'], stored = true): SecretInput[] => [
    { wireName: 'api_key', stored, change },
  ];
  const check = (destinations: typeof stay, inputs: SecretInput[]) => () =>
    assertSecretsFollowDestination('provider', destinations, inputs, ErrorCode.ProviderCredentialsRequired);

  it('should let a stored secret stay when no destination moves', () => {
    expect(check(stay, key({ kind: 'keep' }))).not.toThrow();
  });

  it('should refuse a move that carries a stored secret along, naming it and the field (2028)', () => {
    const error = thrown(check(move, key({ kind: 'keep' })));
    expect(error).toMatchObject({ code: ErrorCode.ProviderCredentialsRequired });
    expect((error as Error).message).toContain('api_key');
    expect((error as Error).message).toContain('base_url');
  });

  it('should allow a move whose secret is given again, cleared, or was never stored', () => {
    expect(check(move, key({ kind: 'set', value: 'k' }))).not.toThrow();
    expect(check(move, key({ kind: 'clear' }))).not.toThrow();
    expect(check(move, key({ kind: 'keep' }, false))).not.toThrow();
  });
});
