import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import { type HumanRole, HumanRole as Roles, NotFoundError, ErrorCode, UnauthorizedError } from '@app/domain';
import type { SessionEntity } from '@app/persistence';
import {
  type ActorContext,
  LOGGING_RUNTIME,
  type LoggingRuntime,
  type PresentedToken,
  RequestAuthenticator,
} from '@app/platform';

import type { SessionDto } from './dto/auth.dto';
import { SessionCache } from './session-cache';
import { SessionsRepository } from './sessions.repository';
import { TokenService } from './token.service';

export interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
}

/**
 * Sessions: creation, validation on every request (JWT verify + cached session lookup), listing and
 * revocation. Implements the platform's RequestAuthenticator port used by the global AuthGuard.
 */
@Injectable()
export class SessionsService extends RequestAuthenticator {
  readonly cache = new SessionCache();
  private readonly audit: Logger;
  private readonly revocationListeners: Array<(ids: string[], userId: string | null) => void> = [];

  constructor(
    private readonly tokens: TokenService,
    private readonly repository: SessionsRepository,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    super();
    this.audit = logging.forName('security.audit');
  }

  async authenticate(presented: PresentedToken): Promise<ActorContext> {
    const verified = this.tokens.verify(presented.token);
    const now = Date.now();
    if (verified.kind === 'cli') {
      return {
        userId: 'system',
        username: 'system',
        role: Roles.System,
        sessionId: null,
        mustChangePassword: false,
        department: null,
        via: 'cli',
        expiresAt: verified.exp * 1000,
      };
    }
    const { claims } = verified;
    const cached = this.cache.get(claims.jti, now);
    if (cached) {
      return cached.via === presented.via ? cached : { ...cached, via: presented.via };
    }
    const ticket = this.cache.ticket();
    const row = await this.repository.findActive(claims.jti, new Date(now));
    if (!row || row.user.id !== claims.sub) {
      throw new UnauthorizedError('Session expired or revoked', ErrorCode.SessionRevoked);
    }
    const actor: ActorContext = {
      userId: row.user.id,
      username: row.user.username,
      role: row.user.role as HumanRole,
      sessionId: claims.jti,
      mustChangePassword: row.user.mustChangePassword,
      department: row.user.department,
      via: presented.via,
      expiresAt: row.session.expiresAt.getTime(),
    };
    this.cache.set(claims.jti, actor, now, ticket);
    return actor;
  }

  /** Creates a session row and its token. */
  async open(
    user: { id: string; role: HumanRole },
    client: ClientInfo,
  ): Promise<{ token: string; sessionId: string; expiresAt: Date }> {
    const sessionId = this.tokens.newSessionId();
    const now = new Date();
    const { token, expiresAt } = this.tokens.sign(user.id, user.role, sessionId, now.getTime());
    await this.repository.insert({
      id: sessionId,
      userId: user.id,
      ipAddress: client.ip?.slice(0, 64) ?? null,
      userAgent: client.userAgent?.slice(0, 512) ?? null,
      createdAt: now,
      lastActiveAt: now,
      expiresAt,
      revokedAt: null,
    });
    return { token, sessionId, expiresAt };
  }

  async list(actor: ActorContext, scope: 'own' | 'all'): Promise<SessionDto[]> {
    const rows = await this.repository.listActive(new Date(), scope === 'all' ? undefined : actor.userId);
    return rows.map((s) => toSessionDto(s, actor.sessionId));
  }

  /** Own sessions, or any session for the CEO; anything else is not found (no existence leak). */
  async revokeOne(actor: ActorContext, sessionId: string): Promise<void> {
    const session = await this.repository.findById(sessionId);
    if (!session || session.revokedAt || (session.userId !== actor.userId && actor.role !== Roles.Ceo)) {
      throw new NotFoundError('Session not found', ErrorCode.SessionNotFound);
    }
    await this.revoke({ ids: [sessionId] }, actor, 'revoked');
  }

  /** Revokes sessions and evicts them from every replica's cache. */
  async revoke(
    where: { ids?: string[]; userId?: string; exceptId?: string },
    actor: { userId: string; username: string } | null,
    reason: string,
  ): Promise<string[]> {
    const ids = await this.repository.revoke(where, new Date());
    this.evict(ids, where.userId ?? null);
    if (ids.length > 0) {
      this.audit.info(
        {
          actor: actor?.username ?? null,
          actor_id: actor?.userId ?? null,
          session_count: ids.length,
          reason,
          target_user_id: where.userId ?? null,
        },
        'security.session.revoked',
      );
    }
    return ids;
  }

  /** Evicts cached sessions locally and notifies listeners (the cross-replica bus). */
  evict(ids: string[], userId: string | null): void {
    this.cache.evictSessions(ids);
    if (userId) {
      this.cache.evictUser(userId);
    }
    for (const listener of this.revocationListeners) {
      listener(ids, userId);
    }
  }

  onRevocation(listener: (ids: string[], userId: string | null) => void): void {
    this.revocationListeners.push(listener);
  }

  async isActive(sessionId: string): Promise<boolean> {
    return (await this.repository.findActive(sessionId, new Date())) !== null;
  }
}

export function toSessionDto(s: SessionEntity, currentSessionId: string | null): SessionDto {
  return {
    session_id: s.id,
    user_id: s.userId,
    username: s.user?.username ?? '',
    ip_address: s.ipAddress,
    user_agent: s.userAgent,
    created_at: s.createdAt.toISOString(),
    last_active_at: s.lastActiveAt.toISOString(),
    expires_at: s.expiresAt.toISOString(),
    is_current: s.id === currentSessionId,
  };
}
