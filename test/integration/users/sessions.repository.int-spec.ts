import { createHash } from 'node:crypto';

import { LoginFailureEntity, SessionEntity, UserEntity, WsTicketEntity } from '@app/persistence';
import { type MigratedDatabase, openMigratedDatabase, sessionRow, testBackends, userRow } from '@app/testing';

import { SessionsRepository } from '../../../apps/api/src/modules/users/sessions.repository';

const NOW = new Date('2026-03-01T12:00:00.000Z');
const later = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);
const hash = (ticket: string) => createHash('sha256').update(ticket).digest('hex');

describe.each(testBackends())('SessionsRepository on %s', (backend) => {
  let store: MigratedDatabase;
  let repo: SessionsRepository;

  beforeAll(async () => {
    store = await openMigratedDatabase(backend);
    repo = new SessionsRepository(store.database);
  });

  beforeEach(async () => {
    await store.clear(WsTicketEntity, SessionEntity, LoginFailureEntity, UserEntity);
    await store.source
      .getRepository(UserEntity)
      .insert([userRow({ username: 'alice', role: 'manager', department: 'design' }), userRow({ username: 'bob' })]);
  });

  afterAll(() => store?.close());

  it('should find a session with its user only while it is neither revoked nor expired', async () => {
    await repo.insert(sessionRow({ id: 's-live', expiresAt: later(60) }));
    await repo.insert(sessionRow({ id: 's-expired', expiresAt: later(-1) }));
    await repo.insert(sessionRow({ id: 's-revoked', expiresAt: later(60), revokedAt: NOW }));

    const live = await repo.findActive('s-live', NOW);

    expect(live?.user).toEqual({
      id: 'user-alice',
      username: 'alice',
      role: 'manager',
      mustChangePassword: false,
      department: 'design',
    });
    expect(live?.session.id).toBe('s-live');
    expect(await repo.findActive('s-expired', NOW)).toBeNull();
    expect(await repo.findActive('s-revoked', NOW)).toBeNull();
  });

  it("should revoke a user's active sessions except the one kept, and answer the ids it revoked", async () => {
    await repo.insert(sessionRow({ id: 's-1', expiresAt: later(60), createdAt: later(-30) }));
    await repo.insert(sessionRow({ id: 's-2', expiresAt: later(60), createdAt: later(-20) }));
    await repo.insert(sessionRow({ id: 's-3', expiresAt: later(60), createdAt: later(-10) }));
    await repo.insert(sessionRow({ id: 's-bob', userId: 'user-bob', expiresAt: later(60) }));

    const revoked = await repo.revoke({ userId: 'user-alice', exceptId: 's-2' }, NOW);
    const again = await repo.revoke({ ids: ['s-1'] }, later(1));

    expect(revoked.sort()).toEqual(['s-1', 's-3']);
    expect(again).toEqual([]);
    expect((await repo.listActive(NOW)).map((s) => s.id).sort()).toEqual(['s-2', 's-bob']);
    expect((await repo.listActive(NOW, 'user-alice')).map((s) => s.id)).toEqual(['s-2']);
    expect((await repo.findById('s-1'))?.revokedAt).toEqual(NOW);
  });

  it('should remove the sessions of a deleted user with it', async () => {
    await repo.insert(sessionRow({ id: 's-1', expiresAt: later(60) }));

    await store.source.getRepository(UserEntity).delete({ id: 'user-alice' });

    expect(await repo.findById('s-1')).toBeNull();
  });

  it('should report login failures after a point in time, in order, until cleared', async () => {
    await repo.recordFailure('alice', later(-120));
    await repo.recordFailure('alice', later(-20));
    await repo.recordFailure('alice', later(-40));
    await repo.recordFailure('bob', later(-10));

    const recent = await repo.failureTimes('alice', later(-60));
    await repo.clearFailures('alice');

    expect(recent).toEqual([later(-40).getTime(), later(-20).getTime()]);
    expect(await repo.failureTimes('alice', later(-600))).toEqual([]);
    expect(await repo.failureTimes('bob', later(-600))).toHaveLength(1);
  });

  it('should let a ticket be consumed once, and never after it expired', async () => {
    await repo.insert(sessionRow({ id: 's-1', expiresAt: later(60) }));
    const ticket = { userId: 'user-alice', sessionId: 's-1', createdAt: NOW };
    await repo.insertTicket({ ...ticket, ticketHash: hash('fresh'), expiresAt: later(30) });
    await repo.insertTicket({ ...ticket, ticketHash: hash('stale'), expiresAt: later(-1) });

    expect(await repo.countPendingTickets('user-alice', NOW)).toBe(1);
    expect(await repo.consumeTicket(hash('fresh'), NOW)).toEqual({ userId: 'user-alice', sessionId: 's-1' });
    expect(await repo.consumeTicket(hash('fresh'), NOW)).toBeNull();
    expect(await repo.consumeTicket(hash('stale'), NOW)).toBeNull();
  });
});
