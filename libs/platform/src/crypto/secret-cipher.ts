import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

import { ErrorCode, InternalError } from '@app/domain';

import type { SecretsKeyRing } from '../config/app-config';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface SealedSecret {
  /** `v1:<keyId>:<iv>:<tag>:<ciphertext>`, base64url parts. */
  envelope: string;
  keyId: string;
}

/**
 * AES-256-GCM encryption of secrets at rest. Each value gets a fresh 96-bit IV; the key id travels
 * in the envelope (and beside it in the row) so older keys in the ring still decrypt after rotation.
 * The key id is authenticated as additional data, so an envelope cannot be replayed under another key.
 */
export class SecretCipher {
  constructor(private readonly ring: SecretsKeyRing) {}

  get currentKeyId(): string {
    return this.ring.currentKeyId;
  }

  seal(plaintext: string): SealedSecret {
    const keyId = this.ring.currentKeyId;
    const key = this.keyFor(keyId);
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(`${VERSION}:${keyId}`));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return {
      envelope: [VERSION, keyId, iv.toString('base64url'), tag.toString('base64url'), body.toString('base64url')].join(
        ':',
      ),
      keyId,
    };
  }

  open(envelope: string): string {
    const parts = envelope.split(':');
    if (parts.length !== 5 || parts[0] !== VERSION) {
      throw new InternalError('stored secret has an unknown format', ErrorCode.SettingsEncryptionError);
    }
    const [, keyId, iv, tag, body] = parts;
    const key = this.keyFor(keyId);
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), {
        authTagLength: TAG_BYTES,
      });
      decipher.setAAD(Buffer.from(`${VERSION}:${keyId}`));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    } catch (error) {
      throw new InternalError(
        `stored secret failed authentication under key ${keyId}`,
        ErrorCode.SettingsEncryptionError,
        error,
      );
    }
  }

  /** Whether an envelope was sealed with an older key and should be re-sealed. */
  needsRotation(keyId: string | null): boolean {
    return keyId !== null && keyId !== this.ring.currentKeyId;
  }

  private keyFor(keyId: string): Buffer {
    const key = this.ring.keys.get(keyId);
    if (!key) {
      throw new InternalError(
        `no key with id ${keyId} in the secrets key ring (set SYNTHORG_SECRETS_PREVIOUS_KEYS to keep old keys)`,
        ErrorCode.SettingsEncryptionError,
      );
    }
    return key;
  }
}
