import { randomBytes } from 'node:crypto';

import { AppError, ErrorCode } from '@app/domain';

import { secretKeyId } from '../config/app-config';
import { SecretCipher } from './secret-cipher';

function ring(...keys: Buffer[]) {
  const map = new Map(keys.map((k) => [secretKeyId(k), k] as const));
  return { currentKeyId: secretKeyId(keys[0]), keys: map, derived: false };
}

describe('SecretCipher', () => {
  const key = randomBytes(32);

  it('should round-trip a secret and never leave the plaintext in the envelope', () => {
    const cipher = new SecretCipher(ring(key));
    const sealed = cipher.seal('sk-very-secret-value');
    expect(sealed.envelope).not.toContain('sk-very-secret-value');
    expect(sealed.envelope.startsWith(`v1:${secretKeyId(key)}:`)).toBe(true);
    expect(cipher.open(sealed.envelope)).toBe('sk-very-secret-value');
  });

  it('should use a fresh IV for every seal', () => {
    const cipher = new SecretCipher(ring(key));
    expect(cipher.seal('same').envelope).not.toBe(cipher.seal('same').envelope);
  });

  it('should open envelopes sealed with a previous key after rotation, and flag them for re-sealing', () => {
    const old = new SecretCipher(ring(key)).seal('rotated');
    const next = randomBytes(32);
    const rotated = new SecretCipher(ring(next, key));
    expect(rotated.open(old.envelope)).toBe('rotated');
    expect(rotated.needsRotation(old.keyId)).toBe(true);
    expect(rotated.needsRotation(secretKeyId(next))).toBe(false);
  });

  it.each([
    ['a key that left the ring', (e: string) => e, () => new SecretCipher(ring(randomBytes(32)))],
    [
      'a tampered ciphertext',
      // The character replaced is the one compared: otherwise a body already holding 'A' there
      // (one envelope in 64) would come back untouched and decrypt.
      (e: string) => e.slice(0, -2) + (e.at(-2) === 'A' ? 'B' : 'A') + e.slice(-1),
      () => new SecretCipher(ring(key)),
    ],
    ['an unknown format', () => 'plain-text', () => new SecretCipher(ring(key))],
  ])('should refuse %s with code 8014', (_label, mutate, cipherOf) => {
    const envelope = mutate(new SecretCipher(ring(key)).seal('value').envelope);
    let caught: unknown;
    try {
      cipherOf().open(envelope);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(AppError);
    expect((caught as AppError).code).toBe(ErrorCode.SettingsEncryptionError);
  });
});
