import { randomBytes } from 'node:crypto';

import { Injectable } from '@nestjs/common';
import { Algorithm, hash, verify } from '@node-rs/argon2';

// OWASP-recommended Argon2id parameters (m=19 MiB, t=2, p=1): ~20-40 ms per hash on a small core.
const OPTIONS = { algorithm: Algorithm.Argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** Argon2id hashing; unknown accounts are checked against a dummy hash so timing reveals nothing. */
@Injectable()
export class PasswordHasher {
  private dummy: Promise<string> | null = null;

  hash(password: string): Promise<string> {
    return hash(password, OPTIONS);
  }

  async verify(stored: string | null, password: string): Promise<boolean> {
    const target = stored ?? (await this.dummyHash());
    try {
      const ok = await verify(target, password);
      return stored !== null && ok;
    } catch {
      return false;
    }
  }

  /** A hash nobody knows the password of (the system identity's). */
  unusableHash(): Promise<string> {
    return this.hash(randomBytes(48).toString('base64url'));
  }

  private dummyHash(): Promise<string> {
    this.dummy ??= this.unusableHash();
    return this.dummy;
  }
}
