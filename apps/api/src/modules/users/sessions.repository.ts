import { Injectable } from '@nestjs/common';
import { In, IsNull, LessThan, MoreThan, type Repository } from 'typeorm';

import { LoginFailureEntity, SessionEntity, UserEntity, WsTicketEntity } from '@app/persistence';
import { DatabaseService } from '@app/platform';

export interface ActiveSessionRow {
  session: SessionEntity;
  user: Pick<UserEntity, 'id' | 'username' | 'role' | 'mustChangePassword' | 'department'>;
}

/** Sessions, WebSocket tickets and login failures: the server-side state of authentication. */
@Injectable()
export class SessionsRepository {
  constructor(private readonly database: DatabaseService) {}

  private get sessions(): Repository<SessionEntity> {
    return this.database.dataSource.getRepository(SessionEntity);
  }

  async insert(session: SessionEntity): Promise<void> {
    await this.sessions.insert(session);
  }

  /** The session with its user, when it exists, is not revoked and has not expired. */
  async findActive(sessionId: string, now: Date): Promise<ActiveSessionRow | null> {
    const session = await this.sessions.findOne({
      where: { id: sessionId, revokedAt: IsNull(), expiresAt: MoreThan(now) },
      relations: { user: true },
    });
    if (!session?.user) {
      return null;
    }
    const { user } = session;
    return {
      session,
      user: {
        id: user.id,
        username: user.username,
        role: user.role,
        mustChangePassword: user.mustChangePassword,
        department: user.department,
      },
    };
  }

  findById(sessionId: string): Promise<SessionEntity | null> {
    return this.sessions.findOne({ where: { id: sessionId }, relations: { user: true } });
  }

  listActive(now: Date, userId?: string): Promise<SessionEntity[]> {
    return this.sessions.find({
      where: { revokedAt: IsNull(), expiresAt: MoreThan(now), ...(userId ? { userId } : {}) },
      relations: { user: true },
      order: { createdAt: 'DESC' },
    });
  }

  async touch(sessionId: string, at: Date): Promise<void> {
    await this.sessions.update({ id: sessionId }, { lastActiveAt: at });
  }

  /** Revokes sessions; returns the ids that were active. */
  async revoke(where: { ids?: string[]; userId?: string; exceptId?: string }, at: Date): Promise<string[]> {
    const active = await this.sessions.find({
      select: { id: true },
      where: {
        revokedAt: IsNull(),
        ...(where.ids ? { id: In(where.ids) } : {}),
        ...(where.userId ? { userId: where.userId } : {}),
      },
    });
    const ids = active.map((s) => s.id).filter((id) => id !== where.exceptId);
    if (ids.length > 0) {
      await this.sessions.update({ id: In(ids) }, { revokedAt: at });
    }
    return ids;
  }

  async pruneExpired(before: Date): Promise<void> {
    await this.sessions.delete({ expiresAt: LessThan(before) });
  }

  // ---- login failures (lockout)

  async recordFailure(username: string, at: Date): Promise<void> {
    await this.database.dataSource.getRepository(LoginFailureEntity).insert({ username, failedAt: at });
  }

  async failureTimes(username: string, since: Date): Promise<number[]> {
    const rows = await this.database.dataSource
      .getRepository(LoginFailureEntity)
      .find({ select: { failedAt: true }, where: { username, failedAt: MoreThan(since) }, order: { failedAt: 'ASC' } });
    return rows.map((r) => r.failedAt.getTime());
  }

  async clearFailures(username: string): Promise<void> {
    await this.database.dataSource.getRepository(LoginFailureEntity).delete({ username });
  }

  // ---- WebSocket tickets

  async insertTicket(ticket: WsTicketEntity): Promise<void> {
    await this.database.dataSource.getRepository(WsTicketEntity).insert(ticket);
  }

  async countPendingTickets(userId: string, now: Date): Promise<number> {
    return this.database.dataSource.getRepository(WsTicketEntity).countBy({ userId, expiresAt: MoreThan(now) });
  }

  async deleteExpiredTickets(now: Date): Promise<void> {
    await this.database.dataSource.getRepository(WsTicketEntity).delete({ expiresAt: LessThan(now) });
  }

  /**
   * Consumes a ticket atomically: the DELETE … RETURNING succeeds for exactly one caller, on any
   * replica, and only before expiry.
   */
  async consumeTicket(ticketHash: string, now: Date): Promise<{ userId: string; sessionId: string } | null> {
    const ds = this.database.dataSource;
    const postgres = ds.options.type === 'postgres';
    const sql = postgres
      ? 'DELETE FROM ws_tickets WHERE ticket_hash = $1 AND expires_at > $2 RETURNING user_id, session_id'
      : 'DELETE FROM ws_tickets WHERE ticket_hash = ? AND expires_at > ? RETURNING user_id, session_id';
    const param = postgres ? now : now.toISOString().replace('T', ' ').replace('Z', '');
    const result: unknown = await ds.query(sql, [ticketHash, param]);
    const rows = (Array.isArray(result) && Array.isArray(result[0]) ? result[0] : result) as Array<{
      user_id: string;
      session_id: string;
    }>;
    const row = rows[0];
    return row ? { userId: row.user_id, sessionId: row.session_id } : null;
  }
}
