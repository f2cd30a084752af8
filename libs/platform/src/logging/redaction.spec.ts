import { isSensitiveKey, REDACTED, redact, redactRecord, SENSITIVE_KEY_FRAGMENTS } from './redaction';

describe('redact', () => {
  it('should redact every listed key when each appears as a plain string field', () => {
    const keys = [
      'password',
      'secret',
      'token',
      'api_key',
      'api_secret',
      'authorization',
      'credential',
      'private_key',
      'bearer',
      'session',
    ];
    const record = Object.fromEntries(keys.map((key) => [key, `value-of-${key}`]));
    const result = redact(record);
    for (const key of keys) {
      expect(result[key]).toBe(REDACTED);
    }
    expect(SENSITIVE_KEY_FRAGMENTS).toHaveLength(keys.length);
  });

  it('should match keys case-insensitively and as substrings when names are decorated', () => {
    for (const key of [
      'Authorization',
      'PASSWORD',
      'access_token',
      'jwt_secret',
      'x-api-key',
      'apiKey',
      'privateKey',
      'session_id',
      'db_credentials',
    ]) {
      expect(isSensitiveKey(key)).toBe(true);
    }
    for (const key of ['user', 'event', 'logger', 'status', 'path', 'keyword']) {
      expect(isSensitiveKey(key)).toBe(false);
    }
  });

  it('should redact at every depth when secrets sit in nested objects and arrays', () => {
    const input = {
      user: 'ada',
      request: { headers: { Authorization: 'Bearer abc', accept: 'json' } },
      items: [{ name: 'a', api_key: 'k1' }, [{ deeper: { client_secret: 's' } }], 'plain'],
    };
    expect(redact(input)).toEqual({
      user: 'ada',
      request: { headers: { Authorization: REDACTED, accept: 'json' } },
      items: [{ name: 'a', api_key: REDACTED }, [{ deeper: { client_secret: REDACTED } }], 'plain'],
    });
  });

  it('should replace a whole object or array when it sits under a sensitive key', () => {
    expect(redact({ credentials: { user: 'u', pass: 'p' }, tokens: ['a', 'b'] })).toEqual({
      credentials: REDACTED,
      tokens: REDACTED,
    });
  });

  it('should keep numbers, booleans and nulls when they sit under a sensitive key', () => {
    expect(redact({ input_tokens: 120, max_tokens: 4096, has_password: true, session: null })).toEqual({
      input_tokens: 120,
      max_tokens: 4096,
      has_password: true,
      session: null,
    });
  });

  it('should not mutate the input when it redacts', () => {
    const input = { nested: { password: 'p', list: [{ token: 't' }] }, other: { ok: 1 } };
    const snapshot = JSON.parse(JSON.stringify(input)) as unknown;
    const result = redact(input);
    expect(input).toEqual(snapshot);
    expect(result).not.toBe(input);
    expect(result.other).toBe(input.other);
  });

  it('should return the same reference when nothing needs redaction', () => {
    const input = { a: 1, b: { c: [1, 2, { d: 'x' }] } };
    expect(redact(input)).toBe(input);
  });

  it('should render errors as plain objects with redacted fields when errors are nested', () => {
    const error = Object.assign(new Error('upstream failed'), {
      code: 'E_UP',
      config: { headers: { authorization: 'Bearer zzz' } },
    });
    error.cause = Object.assign(new TypeError('inner'), { password: 'hunter2' });
    const result = redact({ details: { error } }) as unknown as { details: { error: Record<string, unknown> } };
    expect(result.details.error).toMatchObject({
      type: 'Error',
      message: 'upstream failed',
      code: 'E_UP',
      config: { headers: { authorization: REDACTED } },
      cause: { type: 'TypeError', message: 'inner', password: REDACTED },
    });
    expect(result.details.error['stack']).toEqual(expect.stringContaining('upstream failed'));
    expect((error as unknown as { config: { headers: { authorization: string } } }).config.headers.authorization).toBe(
      'Bearer zzz',
    );
  });

  it('should cut cycles when an object refers back to an ancestor', () => {
    const input: Record<string, unknown> = { name: 'loop', token: 'x' };
    input['self'] = input;
    expect(redact(input)).toEqual({ name: 'loop', token: REDACTED, self: '[Circular]' });
  });

  it('should leave class instances and dates untouched when they are not plain objects', () => {
    class Holder {
      constructor(readonly password: string) {}
    }
    const holder = new Holder('p');
    const when = new Date(0);
    const input = { holder, when };
    expect(redact(input)).toBe(input);
  });
});

describe('redactRecord', () => {
  it('should keep the err value Error-shaped with redacted content when a record carries an error', () => {
    const error = Object.assign(new RangeError('bad'), { api_key: 'k' });
    const record = { err: error };
    const result = redactRecord(record);
    const copy = result['err'] as RangeError & { api_key: string };
    expect(copy).toBeInstanceOf(RangeError);
    expect(copy).not.toBe(error);
    expect(copy.message).toBe('bad');
    expect(copy.api_key).toBe(REDACTED);
    expect(error.api_key).toBe('k');
    expect(record.err).toBe(error);
  });
});
