import { ErrorCode } from '@app/domain';

import {
  canonicalJson,
  idempotencyScopeId,
  type IdempotencyScope,
  parseIdempotencyKey,
  RequestFingerprinter,
} from './idempotency-key';

const SECRET = 'test-signing-secret-0123456789-abcdefghijklmnop';

describe(parseIdempotencyKey.name, () => {
  it('should accept 1 to 255 visible ASCII characters', () => {
    expect(parseIdempotencyKey('a')).toBe('a');
    expect(parseIdempotencyKey('k'.repeat(255))).toBe('k'.repeat(255));
    expect(parseIdempotencyKey('"8e03978e-40d5-43e8-bc93-6894a57f9324"')).toBe(
      '"8e03978e-40d5-43e8-bc93-6894a57f9324"',
    );
  });

  it.each([
    ['empty', ''],
    ['256 characters', 'k'.repeat(256)],
    ['a space', 'two words'],
    ['a control character', 'key\u0001'],
    ['non-ASCII', 'clé'],
  ])('should refuse a key that is %s with 400 and code 2025', (_label, raw) => {
    expect(() => parseIdempotencyKey(raw)).toThrow(
      expect.objectContaining({ code: ErrorCode.IdempotencyKeyInvalid, httpStatus: 400 }),
    );
  });

  it('should refuse a header sent twice', () => {
    expect(() => parseIdempotencyKey(['a', 'b'])).toThrow(expect.objectContaining({ code: 2025 }));
  });
});

describe(idempotencyScopeId.name, () => {
  const scope: IdempotencyScope = {
    actor: 'user-1',
    method: 'PATCH',
    route: '/api/v1/tasks/:task_id',
    params: { task_id: 'task-a' },
    key: 'retry-1',
  };

  it('should be a stable SHA-256 hex id that does not contain the key', () => {
    const id = idempotencyScopeId(scope);
    expect(id).toMatch(/^[0-9a-f]{64}$/);
    expect(idempotencyScopeId({ ...scope })).toBe(id);
    expect(id).not.toContain('retry-1');
  });

  it.each<[string, Partial<IdempotencyScope>]>([
    ['resource id', { params: { task_id: 'task-b' } }],
    ['actor', { actor: 'user-2' }],
    ['method', { method: 'DELETE' }],
    ['route', { route: '/api/v1/projects/:task_id' }],
    ['key', { key: 'retry-2' }],
  ])('should give another id when the %s differs', (_label, change) => {
    expect(idempotencyScopeId({ ...scope, ...change })).not.toBe(idempotencyScopeId(scope));
  });

  it('should not depend on the order of the path parameters', () => {
    const a = idempotencyScopeId({ ...scope, params: { name: 'n', model_id: 'm' } });
    const b = idempotencyScopeId({ ...scope, params: { model_id: 'm', name: 'n' } });
    expect(a).toBe(b);
  });

  it('should not let a separator inside a value forge another scope', () => {
    const a = idempotencyScopeId({ ...scope, actor: 'u', key: 'x|PATCH' });
    const b = idempotencyScopeId({ ...scope, actor: 'u|x', key: 'PATCH' });
    expect(a).not.toBe(b);
  });
});

describe(canonicalJson.name, () => {
  it('should sort object keys at every depth and keep array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: null } })).toBe('{"a":{"c":null,"d":[2,1]},"b":1}');
  });

  it('should render undefined as null', () => {
    expect(canonicalJson(undefined)).toBe('null');
  });

  it('should keep a __proto__ key as data', () => {
    const parsed: unknown = JSON.parse('{"__proto__":{"x":1},"a":2}');
    expect(canonicalJson(parsed)).toBe('{"__proto__":{"x":1},"a":2}');
  });

  it('should not overflow the stack on deeply nested arrays', () => {
    const deep: unknown = JSON.parse('['.repeat(5000) + ']'.repeat(5000));
    expect(canonicalJson(deep)).toHaveLength(10000);
  });
});

describe(RequestFingerprinter.name, () => {
  const fingerprinter = new RequestFingerprinter(SECRET);

  it('should give the same fingerprint for the same payload in another key order', () => {
    expect(fingerprinter.fingerprint({ title: 't', project: 'p' }, {})).toBe(
      fingerprinter.fingerprint({ project: 'p', title: 't' }, {}),
    );
  });

  it('should tell bodies and queries apart', () => {
    const base = fingerprinter.fingerprint({ title: 't' }, {});
    expect(fingerprinter.fingerprint({ title: 'u' }, {})).not.toBe(base);
    expect(fingerprinter.fingerprint({ title: 't' }, { confirm: 'true' })).not.toBe(base);
  });

  it('should treat a missing body as null', () => {
    expect(fingerprinter.fingerprint(undefined, undefined)).toBe(fingerprinter.fingerprint(null, {}));
  });

  it('should be keyed by the signing secret, so a stored fingerprint is no plain hash of a password', () => {
    const other = new RequestFingerprinter(`${SECRET}-rotated`);
    expect(other.fingerprint({ password: 'hunter2' }, {})).not.toBe(
      fingerprinter.fingerprint({ password: 'hunter2' }, {}),
    );
  });
});
