import { randomBytes } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';

import { type HumanRole, isHumanRole, UnauthorizedError } from '@app/domain';
import { APP_CONFIG, type AppConfig } from '@app/platform';

export const TOKEN_ISSUER = 'synthorg-api';
export const TOKEN_AUDIENCE = 'synthorg-api';
export const CLI_ISSUER = 'synthorg-cli';
export const CLI_AUDIENCE = 'synthorg-backend';

export interface SessionClaims {
  sub: string;
  jti: string;
  role: HumanRole;
  iat: number;
  exp: number;
}

export type VerifiedToken = { kind: 'session'; claims: SessionClaims } | { kind: 'cli'; exp: number };

interface RawClaims {
  sub?: unknown;
  jti?: unknown;
  role?: unknown;
  iat?: unknown;
  exp?: unknown;
  iss?: unknown;
  aud?: unknown;
}

/** Tokens remembered as verified; beyond this the oldest are forgotten (and verified again if seen). */
const VERIFIED_MEMO_SIZE = 4096;

/**
 * HS256 session tokens (`sub`, `jti` = session id, `role`, `iat`, `exp`, `iss`/`aud`). The JwtModule
 * holds the secret as a prepared KeyObject (see users.module.ts): verifying with a plain string makes
 * the JWT library probe it as a public key on every request, a measurable per-request cost.
 */
@Injectable()
export class TokenService {
  readonly lifetimeSeconds: number;
  /**
   * Tokens whose signature and claims already verified, by their exact text. A browser or CLI
   * presents the same token on every request; recognising it costs a map lookup where a full JWT
   * verification (decode, HMAC, claim checks) costs tens of microseconds. Only successes are kept,
   * the key includes the signature, and expiry is checked again on every use. Session revocation
   * is separate (SessionsService), so a remembered token of a revoked session is still refused.
   */
  private readonly verified = new Map<string, VerifiedToken>();

  constructor(
    private readonly jwt: JwtService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.lifetimeSeconds = config.auth.jwtExpiryMinutes * 60;
  }

  newSessionId(): string {
    return randomBytes(16).toString('hex');
  }

  sign(userId: string, role: HumanRole, sessionId: string, now = Date.now()): { token: string; expiresAt: Date } {
    const iat = Math.floor(now / 1000);
    const exp = iat + this.lifetimeSeconds;
    const token = this.jwt.sign({
      sub: userId,
      jti: sessionId,
      role,
      iat,
      exp,
      iss: TOKEN_ISSUER,
      aud: TOKEN_AUDIENCE,
    });
    return { token, expiresAt: new Date(exp * 1000) };
  }

  /** Verifies signature, algorithm, issuer/audience pair and expiry; the CLI's system token is recognised by its pair. */
  verify(token: string, now = Date.now()): VerifiedToken {
    const known = this.verified.get(token);
    if (known) {
      if (expiresAt(known) > now) {
        return known;
      }
      this.verified.delete(token);
      throw new UnauthorizedError('Token expired');
    }
    const result = this.verifyFully(token, now);
    if (this.verified.size >= VERIFIED_MEMO_SIZE) {
      // Map iteration follows insertion order: the first key is the oldest.
      const oldest = this.verified.keys().next().value;
      if (oldest !== undefined) {
        this.verified.delete(oldest);
      }
    }
    this.verified.set(token, result);
    return result;
  }

  private verifyFully(token: string, now: number): VerifiedToken {
    let claims: RawClaims;
    try {
      claims = this.jwt.verify<RawClaims & object>(token, { clockTimestamp: Math.floor(now / 1000) });
    } catch (error) {
      throw new UnauthorizedError(
        error instanceof Error && error.name === 'TokenExpiredError' ? 'Token expired' : 'Invalid token',
      );
    }
    if (
      claims.iss === CLI_ISSUER &&
      claims.aud === CLI_AUDIENCE &&
      claims.sub === 'system' &&
      typeof claims.exp === 'number'
    ) {
      return { kind: 'cli', exp: claims.exp };
    }
    const { sub, jti, role, iat, exp } = claims;
    if (
      claims.iss !== TOKEN_ISSUER ||
      claims.aud !== TOKEN_AUDIENCE ||
      typeof sub !== 'string' ||
      typeof jti !== 'string' ||
      typeof iat !== 'number' ||
      typeof exp !== 'number' ||
      !isHumanRole(role)
    ) {
      throw new UnauthorizedError('Invalid token');
    }
    return { kind: 'session', claims: { sub, jti, role, iat, exp } };
  }
}

function expiresAt(token: VerifiedToken): number {
  return (token.kind === 'cli' ? token.exp : token.claims.exp) * 1000;
}
