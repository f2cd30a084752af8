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

/**
 * HS256 session tokens (`sub`, `jti` = session id, `role`, `iat`, `exp`, `iss`/`aud`). The JwtModule
 * holds the secret as a prepared KeyObject (see users.module.ts): verifying with a plain string makes
 * the JWT library probe it as a public key on every request, a measurable per-request cost.
 */
@Injectable()
export class TokenService {
  readonly lifetimeSeconds: number;

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
  verify(token: string): VerifiedToken {
    let claims: RawClaims;
    try {
      claims = this.jwt.verify<RawClaims & object>(token);
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
