import { createHash } from 'node:crypto';

import { ErrorCode, ForbiddenError, HumanRole, LOCKOUT_MAX_FAILURES, RateLimitedError } from '@app/domain';
import { DistributedLock, LOGGING_RUNTIME } from '@app/platform';
import { actorContext, makeServiceUnderTest, recordingLoggingRuntime, userRow } from '@app/testing';

import { AuditTrail } from '../audit';

import { AuthService, WS_TICKET_MAX_PENDING, WS_TICKET_TTL_SECONDS } from './auth.service';
import { PasswordHasher } from './password-hasher';
import { SessionsRepository } from './sessions.repository';
import { SessionsService } from './sessions.service';
import { UsersRepository } from './users.repository';

const CLIENT = { ip: '203.0.113.7', userAgent: 'jest' };
const PASSWORD = 'correct horse battery';
const ALICE = userRow({ username: 'alice', role: HumanRole.Ceo, passwordHash: 'hash-of-correct' });

/** Sessions open for an hour; the hasher knows one password; the lock runs its work at once. */
function build() {
  const logging = recordingLoggingRuntime();
  const unit = makeServiceUnderTest(AuthService, [{ provide: LOGGING_RUNTIME, useValue: logging.runtime }]);
  const m = {
    sut: unit.sut,
    logLines: logging.lines,
    users: unit.mock(UsersRepository),
    sessions: unit.mock(SessionsService),
    sessionState: unit.mock(SessionsRepository),
    hasher: unit.mock(PasswordHasher),
    trail: unit.mock(AuditTrail),
  };
  m.trail.record.mockResolvedValue(null);
  unit.mock(DistributedLock).runExclusive.mockImplementation((_, work) => work());
  m.hasher.hash.mockImplementation((password) => Promise.resolve(`hash-of-${password.split(' ')[0]}`));
  m.hasher.verify.mockImplementation((hash, password) =>
    Promise.resolve(hash !== null && hash === `hash-of-${password.split(' ')[0]}`),
  );
  m.sessions.open.mockResolvedValue({
    token: 'jwt',
    sessionId: 'session-2',
    expiresAt: new Date(Date.now() + 3_600_000),
  });
  return m;
}

describe(AuthService.name, () => {
  describe('setup', () => {
    it('should create the first CEO and open a session when no CEO exists', async () => {
      const { sut, users, sessions } = build();
      users.countByRole.mockResolvedValue(0);
      users.insert.mockResolvedValue();

      const issued = await sut.setup({ username: ' ceo ', password: PASSWORD }, CLIENT);

      expect(users.insert).toHaveBeenCalledWith(
        expect.objectContaining({ username: 'ceo', role: HumanRole.Ceo, passwordHash: 'hash-of-correct' }),
      );
      expect(sessions.open).toHaveBeenCalledWith({ id: expect.any(String), role: HumanRole.Ceo }, CLIENT);
      expect(issued.body).toEqual({ token: 'jwt', expires_in: expect.any(Number), must_change_password: false });
      expect(issued.body.expires_in).toBeGreaterThan(3590);
    });

    it('should refuse with 4001 when the username is the reserved system name', async () => {
      const { sut, users } = build();

      await expect(sut.setup({ username: 'System', password: PASSWORD }, CLIENT)).rejects.toMatchObject({
        code: ErrorCode.DuplicateRecord,
      });
      expect(users.insert).not.toHaveBeenCalled();
    });

    it('should refuse with 2001 when the password is too short', async () => {
      const { sut } = build();

      await expect(sut.setup({ username: 'ceo', password: 'short' }, CLIENT)).rejects.toMatchObject({
        code: ErrorCode.RequestValidationError,
      });
    });

    it('should refuse with the generic 4000 and create nothing when a CEO already exists', async () => {
      const { sut, users, sessions } = build();
      users.countByRole.mockResolvedValue(1);

      await expect(sut.setup({ username: 'ceo', password: PASSWORD }, CLIENT)).rejects.toMatchObject({
        code: ErrorCode.ResourceConflict,
      });
      expect(users.insert).not.toHaveBeenCalled();
      expect(sessions.open).not.toHaveBeenCalled();
    });
  });

  describe('login', () => {
    it('should clear earlier failures and open a session when the password is right', async () => {
      const { sut, users, sessionState, trail } = build();
      sessionState.failureTimes.mockResolvedValue([]);
      users.findByUsername.mockResolvedValue(ALICE);
      sessionState.clearFailures.mockResolvedValue();

      const issued = await sut.login({ username: 'alice', password: PASSWORD }, CLIENT);

      expect(issued.sessionId).toBe('session-2');
      expect(sessionState.clearFailures).toHaveBeenCalledWith('alice');
      expect(trail.record).toHaveBeenCalledWith(
        expect.objectContaining({
          actor: 'alice',
          action: 'auth.login',
          outcome: 'success',
          target: `user:${ALICE.id}`,
        }),
      );
    });

    it.each([
      ['the password is wrong', ALICE, 'wrong password!!'],
      ['the user is unknown', null, PASSWORD],
      [
        'the user is the system identity',
        userRow({ role: HumanRole.System, passwordHash: 'hash-of-correct' }),
        PASSWORD,
      ],
    ])('should refuse with 1000 and record a failure when %s', async (_, user, password) => {
      const { sut, users, sessionState, hasher } = build();
      sessionState.failureTimes.mockResolvedValue([]);
      users.findByUsername.mockResolvedValue(user);
      sessionState.recordFailure.mockResolvedValue();

      await expect(sut.login({ username: 'alice', password }, CLIENT)).rejects.toMatchObject({
        code: ErrorCode.Unauthorized,
      });
      expect(hasher.verify).toHaveBeenCalledTimes(1);
      expect(sessionState.recordFailure).toHaveBeenCalledWith('alice', expect.any(Date));
    });

    it('should write an audit line without the password when a login fails', async () => {
      const { sut, users, sessionState, logLines, trail } = build();
      sessionState.failureTimes.mockResolvedValue([]);
      users.findByUsername.mockResolvedValue(null);
      sessionState.recordFailure.mockResolvedValue();

      await expect(sut.login({ username: 'mallory', password: PASSWORD }, CLIENT)).rejects.toThrow();

      expect(trail.record).toHaveBeenCalledWith({
        actor: 'mallory',
        action: 'auth.login',
        target: 'user:mallory',
        outcome: 'failure',
        details: { reason: 'invalid_credentials', ip: CLIENT.ip, locked: false },
      });
      expect(JSON.stringify(trail.record.mock.calls)).not.toContain(PASSWORD);

      expect(logLines).toEqual([
        expect.objectContaining({
          logger: 'security.audit',
          msg: 'security.login.failed',
          username: 'mallory',
          ip: CLIENT.ip,
          known_user: false,
        }),
      ]);
      expect(JSON.stringify(logLines)).not.toContain(PASSWORD);
    });

    it('should audit the lock when a failure completes the lockout count', async () => {
      const { sut, users, sessionState, logLines } = build();
      const now = Date.now();
      sessionState.failureTimes.mockResolvedValue(Array.from({ length: LOCKOUT_MAX_FAILURES - 1 }, (_, i) => now - i));
      users.findByUsername.mockResolvedValue(ALICE);
      sessionState.recordFailure.mockResolvedValue();

      await expect(sut.login({ username: 'alice', password: 'wrong password!!' }, CLIENT)).rejects.toMatchObject({
        code: ErrorCode.Unauthorized,
      });

      expect(logLines.map((line) => line.msg)).toEqual(['security.login.failed', 'security.account.locked']);
    });

    it('should refuse with 1003 and a retry time without checking the password when the account is locked', async () => {
      const { sut, sessionState, hasher } = build();
      const now = Date.now();
      sessionState.failureTimes.mockResolvedValue(Array.from({ length: LOCKOUT_MAX_FAILURES }, (_, i) => now - i));

      const error = await sut.login({ username: 'alice', password: PASSWORD }, CLIENT).catch((e: unknown) => e);

      expect(error).toBeInstanceOf(RateLimitedError);
      expect(error).toMatchObject({ code: ErrorCode.AccountLocked });
      expect((error as RateLimitedError).retryAfterSec).toBeGreaterThan(0);
      expect(hasher.verify).not.toHaveBeenCalled();
    });
  });

  describe('changePassword', () => {
    const actor = actorContext({ userId: ALICE.id, mustChangePassword: true });

    it('should store the new hash, revoke older sessions and open a new one when the current password is right', async () => {
      const { sut, users, sessions } = build();
      users.findById.mockResolvedValue(ALICE);
      users.update.mockResolvedValue();
      sessions.revoke.mockResolvedValue(['session-1']);

      const issued = await sut.changePassword(
        actor,
        { current_password: PASSWORD, new_password: 'another long passphrase' },
        CLIENT,
      );

      expect(users.update).toHaveBeenCalledWith(ALICE.id, {
        passwordHash: 'hash-of-another',
        mustChangePassword: false,
      });
      expect(sessions.revoke).toHaveBeenCalledWith({ userId: ALICE.id }, actor, 'password_changed');
      expect(sessions.revoke.mock.invocationCallOrder[0]).toBeLessThan(sessions.open.mock.invocationCallOrder[0]);
      expect(issued.body.must_change_password).toBe(false);
    });

    it('should refuse with 1000 when the current password is wrong', async () => {
      const { sut, users } = build();
      users.findById.mockResolvedValue(ALICE);

      await expect(
        sut.changePassword(actor, { current_password: 'wrong password!!', new_password: 'another long one' }, CLIENT),
      ).rejects.toMatchObject({ code: ErrorCode.Unauthorized });
      expect(users.update).not.toHaveBeenCalled();
    });

    it.each([
      ['too short', 'short'],
      ['the same as the current one', PASSWORD],
    ])('should refuse with 2001 when the new password is %s', async (_, newPassword) => {
      const { sut, users } = build();
      users.findById.mockResolvedValue(ALICE);

      await expect(
        sut.changePassword(actor, { current_password: PASSWORD, new_password: newPassword }, CLIENT),
      ).rejects.toMatchObject({ code: ErrorCode.RequestValidationError });
      expect(users.update).not.toHaveBeenCalled();
    });

    it('should refuse with 1001 when the caller is the system identity', async () => {
      const { sut } = build();

      await expect(
        sut.changePassword(
          actorContext({ role: HumanRole.System }),
          { current_password: 'a', new_password: 'b' },
          CLIENT,
        ),
      ).rejects.toBeInstanceOf(ForbiddenError);
    });
  });

  describe('logout', () => {
    it('should revoke the current session when the caller has one', async () => {
      const { sut, sessions, trail } = build();
      sessions.revoke.mockResolvedValue(['session-1']);
      const actor = actorContext({ sessionId: 'session-9' });

      await sut.logout(actor);

      expect(sessions.revoke).toHaveBeenCalledWith({ ids: ['session-9'] }, actor, 'logout');
      expect(trail.record).toHaveBeenCalledWith(
        expect.objectContaining({ actor: actor.username, action: 'auth.logout', outcome: 'success' }),
      );
    });

    it('should do nothing when there is no session to end', async () => {
      const { sut, sessions } = build();

      await sut.logout(undefined);
      await sut.logout(actorContext({ sessionId: null }));

      expect(sessions.revoke).not.toHaveBeenCalled();
    });
  });

  describe('devLogin', () => {
    it('should refuse with 1000 when no administrator exists', async () => {
      const { sut, users } = build();
      users.findFirstByRole.mockResolvedValue(null);

      await expect(sut.devLogin(CLIENT)).rejects.toMatchObject({ code: ErrorCode.Unauthorized });
    });
  });

  describe('WebSocket tickets', () => {
    it('should store only the ticket hash with a 30-second expiry when the caller is a human session', async () => {
      const { sut, sessionState } = build();
      sessionState.deleteExpiredTickets.mockResolvedValue();
      sessionState.countPendingTickets.mockResolvedValue(0);
      sessionState.insertTicket.mockResolvedValue();

      const { ticket, expires_in } = await sut.issueWsTicket(actorContext());

      expect(expires_in).toBe(WS_TICKET_TTL_SECONDS);
      const [stored] = sessionState.insertTicket.mock.calls[0];
      expect(stored.ticketHash).toBe(createHash('sha256').update(ticket).digest('hex'));
      expect(stored.expiresAt.getTime() - stored.createdAt.getTime()).toBe(WS_TICKET_TTL_SECONDS * 1000);
    });

    it('should refuse with 5000 when the caller already holds the most pending tickets', async () => {
      const { sut, sessionState } = build();
      sessionState.deleteExpiredTickets.mockResolvedValue();
      sessionState.countPendingTickets.mockResolvedValue(WS_TICKET_MAX_PENDING);

      await expect(sut.issueWsTicket(actorContext())).rejects.toMatchObject({ code: ErrorCode.RateLimited });
      expect(sessionState.insertTicket).not.toHaveBeenCalled();
    });

    it('should refuse with 1001 when the caller has no session', async () => {
      const { sut } = build();

      await expect(sut.issueWsTicket(actorContext({ sessionId: null, via: 'cli' }))).rejects.toMatchObject({
        code: ErrorCode.Forbidden,
      });
    });

    it('should answer the principal when a ticket is consumed for a live session', async () => {
      const { sut, sessionState, sessions, users } = build();
      sessionState.consumeTicket.mockResolvedValue({ userId: ALICE.id, sessionId: 'session-1' });
      sessions.isActive.mockResolvedValue(true);
      users.findById.mockResolvedValue(ALICE);

      await expect(sut.consumeTicket('ticket')).resolves.toEqual({
        userId: ALICE.id,
        username: 'alice',
        role: HumanRole.Ceo,
        sessionId: 'session-1',
      });
      expect(sessionState.consumeTicket).toHaveBeenCalledWith(
        createHash('sha256').update('ticket').digest('hex'),
        expect.any(Date),
      );
    });

    it('should answer null without a lookup when the ticket is empty or oversized', async () => {
      const { sut, sessionState } = build();

      await expect(sut.consumeTicket('')).resolves.toBeNull();
      await expect(sut.consumeTicket('x'.repeat(257))).resolves.toBeNull();
      expect(sessionState.consumeTicket).not.toHaveBeenCalled();
    });

    it('should answer null when the ticket session was revoked', async () => {
      const { sut, sessionState, sessions } = build();
      sessionState.consumeTicket.mockResolvedValue({ userId: ALICE.id, sessionId: 'session-1' });
      sessions.isActive.mockResolvedValue(false);

      await expect(sut.consumeTicket('ticket')).resolves.toBeNull();
    });
  });
});
