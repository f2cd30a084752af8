import { createHash, randomBytes, randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import {
  ConflictError,
  ErrorCode,
  ForbiddenError,
  HumanRole,
  lockedUntil,
  LOCKOUT_DURATION_MS,
  LOCKOUT_WINDOW_MS,
  passwordProblem,
  RateLimitedError,
  SYSTEM_USERNAME,
  UnauthorizedError,
  ValidationError,
  type HumanRole as Role,
} from '@app/domain';
import type { UserEntity } from '@app/persistence';
import {
  type ActorContext,
  DistributedLock,
  LOGGING_RUNTIME,
  type LoggingRuntime,
  WsAuthenticator,
  type WsPrincipal,
} from '@app/platform';

import { AuditTrail } from '../audit';
import type { ChangePasswordDto, CredentialsDto, TokenResponseDto, UserInfoDto, WsTicketDto } from './dto/auth.dto';
import { PasswordHasher } from './password-hasher';
import { type ClientInfo, SessionsService } from './sessions.service';
import { SessionsRepository } from './sessions.repository';
import { UsersRepository } from './users.repository';

export const WS_TICKET_TTL_SECONDS = 30;
export const WS_TICKET_MAX_PENDING = 5;

export interface IssuedSession {
  body: TokenResponseDto;
  sessionId: string;
  expiresAt: Date;
}

function hashTicket(ticket: string): string {
  return createHash('sha256').update(ticket).digest('hex');
}

/** Authentication use cases: first-run setup, login, password change, logout, dev login, WebSocket tickets. */
@Injectable()
export class AuthService extends WsAuthenticator {
  private readonly audit: Logger;

  constructor(
    private readonly users: UsersRepository,
    private readonly sessions: SessionsService,
    private readonly sessionState: SessionsRepository,
    private readonly hasher: PasswordHasher,
    private readonly lock: DistributedLock,
    private readonly trail: AuditTrail,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    super();
    this.audit = logging.forName('security.audit');
  }

  /** Creates the first CEO; refused once a CEO exists. Serialised so two concurrent setups cannot both win. */
  async setup(dto: CredentialsDto, client: ClientInfo): Promise<IssuedSession> {
    const username = dto.username.trim();
    if (username.toLowerCase() === SYSTEM_USERNAME) {
      throw new ConflictError(`The username "${SYSTEM_USERNAME}" is reserved`, ErrorCode.DuplicateRecord);
    }
    const problem = passwordProblem(dto.password);
    if (problem) {
      throw new ValidationError(problem, ErrorCode.RequestValidationError);
    }
    const passwordHash = await this.hasher.hash(dto.password);
    const user = await this.lock.runExclusive('auth.setup', async () => {
      if ((await this.users.countByRole(HumanRole.Ceo)) > 0) {
        // 4000 rather than SetupAlreadyComplete (4010): clients already rely on it for a second setup.
        throw new ConflictError('Setup already completed: an administrator account exists', ErrorCode.ResourceConflict);
      }
      const now = new Date();
      const created: UserEntity = {
        id: randomUUID(),
        username,
        passwordHash,
        role: HumanRole.Ceo,
        mustChangePassword: false,
        department: null,
        createdAt: now,
        updatedAt: now,
      };
      await this.users.insert(created);
      return created;
    });
    this.audit.info(
      { actor: user.username, user_id: user.id, role: user.role, ip: client.ip },
      'security.setup.completed',
    );
    return this.issue(user, client);
  }

  async login(dto: CredentialsDto, client: ClientInfo): Promise<IssuedSession> {
    const username = dto.username.trim();
    const now = Date.now();
    const failures = await this.sessionState.failureTimes(
      username,
      new Date(now - LOCKOUT_WINDOW_MS - LOCKOUT_DURATION_MS),
    );
    const locked = lockedUntil(failures, now);
    if (locked !== null) {
      this.audit.warn({ username, ip: client.ip }, 'security.login.locked_out');
      await this.trail.record({
        actor: username,
        action: 'auth.login',
        target: `user:${username}`,
        outcome: 'denied',
        details: { reason: 'locked_out', ip: client.ip },
      });
      throw new RateLimitedError(
        'Account temporarily locked after repeated failed logins',
        (locked - now) / 1000,
        ErrorCode.AccountLocked,
      );
    }
    const user = await this.users.findByUsername(username);
    // The system identity never logs in; unknown names are verified against a dummy hash (same timing).
    const candidate = user && user.role !== HumanRole.System ? user : null;
    const ok = await this.hasher.verify(candidate?.passwordHash ?? null, dto.password);
    if (!ok || !candidate) {
      await this.sessionState.recordFailure(username, new Date());
      const after = lockedUntil([...failures, Date.now()], Date.now());
      this.audit.warn({ username, ip: client.ip, known_user: candidate !== null }, 'security.login.failed');
      await this.trail.record({
        actor: username,
        action: 'auth.login',
        target: `user:${username}`,
        outcome: 'failure',
        details: { reason: 'invalid_credentials', ip: client.ip, locked: after !== null },
      });
      if (after !== null) {
        this.audit.warn(
          { username, ip: client.ip, locked_until: new Date(after).toISOString() },
          'security.account.locked',
        );
      }
      throw new UnauthorizedError('Invalid credentials');
    }
    await this.sessionState.clearFailures(username);
    this.audit.info({ actor: candidate.username, user_id: candidate.id, ip: client.ip }, 'security.login.succeeded');
    await this.trail.record({
      actor: candidate.username,
      action: 'auth.login',
      target: `user:${candidate.id}`,
      outcome: 'success',
      details: { ip: client.ip },
    });
    return this.issue(candidate, client);
  }

  /** Verifies the current password, stores the new one, revokes every older session and issues a new one. */
  async changePassword(actor: ActorContext, dto: ChangePasswordDto, client: ClientInfo): Promise<IssuedSession> {
    if (actor.role === HumanRole.System) {
      throw new ForbiddenError('The system identity has no password');
    }
    const user = await this.users.findById(actor.userId);
    if (!user || !(await this.hasher.verify(user.passwordHash, dto.current_password))) {
      this.audit.warn(
        { actor: actor.username, user_id: actor.userId, ip: client.ip },
        'security.password.change_failed',
      );
      throw new UnauthorizedError('Current password is incorrect');
    }
    const problem = passwordProblem(dto.new_password);
    if (problem) {
      throw new ValidationError(`new_password: ${problem}`, ErrorCode.RequestValidationError);
    }
    if (dto.new_password === dto.current_password) {
      throw new ValidationError(
        'new_password: must differ from the current password',
        ErrorCode.RequestValidationError,
      );
    }
    await this.users.update(user.id, {
      passwordHash: await this.hasher.hash(dto.new_password),
      mustChangePassword: false,
    });
    await this.sessions.revoke({ userId: user.id }, actor, 'password_changed');
    this.audit.info({ actor: actor.username, user_id: actor.userId, ip: client.ip }, 'security.password.changed');
    return this.issue({ ...user, mustChangePassword: false }, client);
  }

  async logout(actor: ActorContext | undefined): Promise<void> {
    if (actor?.sessionId) {
      await this.sessions.revoke({ ids: [actor.sessionId] }, actor, 'logout');
      await this.trail.record({
        actor: actor.username,
        action: 'auth.logout',
        target: `user:${actor.userId}`,
        outcome: 'success',
        details: { session_id: actor.sessionId },
      });
    }
  }

  me(actor: ActorContext): UserInfoDto {
    return {
      id: actor.userId,
      username: actor.username,
      role: actor.role,
      must_change_password: actor.mustChangePassword,
      department: actor.department,
      session_id: actor.sessionId,
    };
  }

  /** Development only: a CEO session without a password; never creates an account. */
  async devLogin(client: ClientInfo): Promise<IssuedSession> {
    const ceo = await this.users.findFirstByRole(HumanRole.Ceo);
    if (!ceo) {
      throw new UnauthorizedError('No administrator account exists');
    }
    this.audit.warn({ actor: ceo.username, user_id: ceo.id, ip: client.ip }, 'security.dev_login.used');
    return this.issue(ceo, client);
  }

  async issueWsTicket(actor: ActorContext): Promise<WsTicketDto> {
    if (!actor.sessionId || actor.role === HumanRole.System) {
      throw new ForbiddenError('WebSocket tickets are for human sessions');
    }
    const now = new Date();
    await this.sessionState.deleteExpiredTickets(now);
    if ((await this.sessionState.countPendingTickets(actor.userId, now)) >= WS_TICKET_MAX_PENDING) {
      throw new RateLimitedError(
        `At most ${WS_TICKET_MAX_PENDING} pending WebSocket tickets per user`,
        WS_TICKET_TTL_SECONDS,
      );
    }
    const ticket = randomBytes(32).toString('base64url');
    await this.sessionState.insertTicket({
      ticketHash: hashTicket(ticket),
      userId: actor.userId,
      sessionId: actor.sessionId,
      createdAt: now,
      expiresAt: new Date(now.getTime() + WS_TICKET_TTL_SECONDS * 1000),
    });
    return { ticket, expires_in: WS_TICKET_TTL_SECONDS };
  }

  async consumeTicket(ticket: string): Promise<WsPrincipal | null> {
    if (typeof ticket !== 'string' || ticket.length === 0 || ticket.length > 256) {
      return null;
    }
    const claimed = await this.sessionState.consumeTicket(hashTicket(ticket), new Date());
    if (!claimed || !(await this.sessions.isActive(claimed.sessionId))) {
      return null;
    }
    const user = await this.users.findById(claimed.userId);
    return user
      ? { userId: user.id, username: user.username, role: user.role as Role, sessionId: claimed.sessionId }
      : null;
  }

  isSessionActive(sessionId: string): Promise<boolean> {
    return this.sessions.isActive(sessionId);
  }

  private async issue(
    user: Pick<UserEntity, 'id' | 'role' | 'mustChangePassword'>,
    client: ClientInfo,
  ): Promise<IssuedSession> {
    const opened = await this.sessions.open({ id: user.id, role: user.role as Role }, client);
    return {
      body: {
        token: opened.token,
        expires_in: Math.max(0, Math.ceil((opened.expiresAt.getTime() - Date.now()) / 1000)),
        must_change_password: user.mustChangePassword,
      },
      sessionId: opened.sessionId,
      expiresAt: opened.expiresAt,
    };
  }
}
