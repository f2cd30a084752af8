import { ErrorCode, HumanRole, SYSTEM_USER_ID } from '@app/domain';
import { DatabaseService } from '@app/platform';
import { actorContext, makeServiceUnderTest, userRow } from '@app/testing';

import { AuditTrail } from '../audit';

import type { CreateUserDto } from './dto/user.dto';
import { PasswordHasher } from './password-hasher';
import { SessionsService } from './sessions.service';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';

const CEO = actorContext({ userId: 'user-alice' });
const BOB = userRow({ username: 'bob', role: HumanRole.Manager, department: 'engineering' });
const SECOND_CEO = userRow({ username: 'carol', role: HumanRole.Ceo });
const SYSTEM = userRow({ id: SYSTEM_USER_ID, username: 'system', role: HumanRole.System });

/** Accounts alice (the caller, CEO), bob (manager), carol (CEO) and the system identity. */
function build() {
  const unit = makeServiceUnderTest(UsersService);
  const m = {
    sut: unit.sut,
    users: unit.mock(UsersRepository),
    sessions: unit.mock(SessionsService),
    hasher: unit.mock(PasswordHasher),
    database: unit.mock(DatabaseService),
    trail: unit.mock(AuditTrail),
  };
  m.trail.record.mockResolvedValue(null);
  const all = [userRow({ username: 'alice', role: HumanRole.Ceo }), BOB, SECOND_CEO, SYSTEM];
  m.users.findById.mockImplementation((id) => Promise.resolve(all.find((u) => u.id === id) ?? null));
  m.users.findByUsername.mockImplementation((name) =>
    Promise.resolve(all.find((u) => u.username === name.toLowerCase()) ?? null),
  );
  m.hasher.hash.mockResolvedValue('hashed');
  return m;
}

function createDto(overrides: Partial<CreateUserDto> = {}): CreateUserDto {
  return { username: 'dave', password: 'a long enough password', role: HumanRole.Observer, ...overrides };
}

describe(UsersService.name, () => {
  describe('onApplicationBootstrap', () => {
    it('should insert the system identity with an unusable password when the database is ready', async () => {
      const { sut, users, hasher, database } = build();
      jest.spyOn(database, 'state', 'get').mockReturnValue('ready');
      hasher.unusableHash.mockResolvedValue('unusable');
      users.insertIfAbsent.mockResolvedValue();

      await sut.onApplicationBootstrap();

      expect(users.insertIfAbsent).toHaveBeenCalledWith(
        expect.objectContaining({ id: SYSTEM_USER_ID, role: HumanRole.System, passwordHash: 'unusable' }),
      );
    });

    it('should write nothing when the database is not ready', async () => {
      const { sut, users, database } = build();
      jest.spyOn(database, 'state', 'get').mockReturnValue('failed');

      await sut.onApplicationBootstrap();

      expect(users.insertIfAbsent).not.toHaveBeenCalled();
    });
  });

  describe('create', () => {
    it('should create the account with a pending password change and a department key when valid', async () => {
      const { sut, users } = build();
      users.insert.mockResolvedValue();

      const user = await sut.create(CEO, createDto({ username: ' dave ', department: ' Engineering ' }));

      expect(user).toMatchObject({ username: 'dave', role: HumanRole.Observer, must_change_password: true });
      expect(users.insert).toHaveBeenCalledWith(
        expect.objectContaining({ passwordHash: 'hashed', department: 'engineering', mustChangePassword: true }),
      );
    });

    it.each([
      ['the username is taken', { username: 'bob' }, ErrorCode.DuplicateRecord],
      ['the username is the reserved system name', { username: 'SYSTEM' }, ErrorCode.DuplicateRecord],
      ['the username is blank', { username: '  ' }, ErrorCode.RequestValidationError],
      ['the password is too short', { password: 'short' }, ErrorCode.RequestValidationError],
    ])('should refuse with its code and write nothing when %s', async (_, overrides, code) => {
      const { sut, users } = build();

      await expect(sut.create(CEO, createDto(overrides))).rejects.toMatchObject({ code });
      expect(users.insert).not.toHaveBeenCalled();
    });

    it('should refuse with 4001 when a concurrent create wins the insert', async () => {
      const { sut, users } = build();
      users.insert.mockRejectedValue(new Error('UNIQUE constraint failed'));
      users.findByUsername.mockResolvedValueOnce(null).mockResolvedValueOnce(userRow({ username: 'dave' }));

      await expect(sut.create(CEO, createDto())).rejects.toMatchObject({ code: ErrorCode.DuplicateRecord });
    });
  });

  describe('updateRole', () => {
    it('should store the role, keep the department and evict cached sessions when the role changes', async () => {
      const { sut, users, sessions, trail } = build();
      users.update.mockResolvedValue();
      sessions.evict.mockReturnValue();

      const user = await sut.updateRole(CEO, BOB.id, { role: HumanRole.Observer });

      expect(user).toMatchObject({ role: HumanRole.Observer, department: 'engineering' });
      expect(users.update).toHaveBeenCalledWith(BOB.id, { role: HumanRole.Observer, department: 'engineering' });
      expect(sessions.evict).toHaveBeenCalledWith([], BOB.id);
      expect(trail.record).toHaveBeenCalledWith({
        actor: CEO.username,
        action: 'user.role_changed',
        target: `user:${BOB.id}`,
        outcome: 'success',
        details: {
          username: 'bob',
          from_role: HumanRole.Manager,
          to_role: HumanRole.Observer,
          department: 'engineering',
        },
      });
    });

    it('should write nothing when role and department stay the same', async () => {
      const { sut, users } = build();

      await sut.updateRole(CEO, BOB.id, { role: HumanRole.Manager, department: 'ENGINEERING' });

      expect(users.update).not.toHaveBeenCalled();
    });

    it('should refuse with 4019 when the last CEO would be demoted', async () => {
      const { sut, users } = build();
      users.countByRole.mockResolvedValue(1);

      await expect(sut.updateRole(CEO, SECOND_CEO.id, { role: HumanRole.Manager })).rejects.toMatchObject({
        code: ErrorCode.LastCeoRequired,
      });
      expect(users.countByRole).toHaveBeenCalledWith(HumanRole.Ceo);
      expect(users.update).not.toHaveBeenCalled();
    });

    it('should refuse with 4021 when the target is the system identity', async () => {
      const { sut } = build();

      await expect(sut.updateRole(CEO, SYSTEM_USER_ID, { role: HumanRole.Ceo })).rejects.toMatchObject({
        code: ErrorCode.SystemIdentityImmutable,
      });
    });

    it('should refuse with 3016 when the account is unknown', async () => {
      const { sut } = build();

      await expect(sut.updateRole(CEO, 'user-ghost', { role: HumanRole.Ceo })).rejects.toMatchObject({
        code: ErrorCode.UserNotFound,
      });
    });
  });

  describe('delete', () => {
    it('should revoke the sessions before deleting the account', async () => {
      const { sut, users, sessions } = build();
      sessions.revoke.mockResolvedValue([]);
      users.delete.mockResolvedValue();

      await sut.delete(CEO, BOB.id);

      expect(sessions.revoke).toHaveBeenCalledWith({ userId: BOB.id }, CEO, 'user_deleted');
      expect(sessions.revoke.mock.invocationCallOrder[0]).toBeLessThan(users.delete.mock.invocationCallOrder[0]);
    });

    it.each([
      ['the caller deletes their own account', 'user-alice', ErrorCode.SelfDeletionRefused],
      ['the target is the system identity', SYSTEM_USER_ID, ErrorCode.SystemIdentityImmutable],
      ['the account is unknown', 'user-ghost', ErrorCode.UserNotFound],
    ])('should refuse with its code when %s', async (_, id, code) => {
      const { sut, users } = build();

      await expect(sut.delete(CEO, id)).rejects.toMatchObject({ code });
      expect(users.delete).not.toHaveBeenCalled();
    });

    it('should refuse with 4019 when the last CEO would be deleted', async () => {
      const { sut, users } = build();
      users.countByRole.mockResolvedValue(1);

      await expect(sut.delete(CEO, SECOND_CEO.id)).rejects.toMatchObject({ code: ErrorCode.LastCeoRequired });
      expect(users.delete).not.toHaveBeenCalled();
    });
  });
});
