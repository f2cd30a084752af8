import { UserEntity } from '@app/persistence';
import { type MigratedDatabase, openMigratedDatabase, testBackends, userRow } from '@app/testing';

import { toUserResponse, toUserResponseFromRow } from '../../../apps/api/src/modules/users/users.mapper';
import { UsersRepository } from '../../../apps/api/src/modules/users/users.repository';

const at = (day: number) => new Date(Date.UTC(2026, 0, day));

describe.each(testBackends())('UsersRepository on %s', (backend) => {
  let store: MigratedDatabase;
  let repo: UsersRepository;

  beforeAll(async () => {
    store = await openMigratedDatabase(backend);
    repo = new UsersRepository(store.database);
  });

  beforeEach(() => store.clear(UserEntity));

  afterAll(() => store?.close());

  it('should read an account back by id and by username', async () => {
    const alice = userRow({ username: 'alice', role: 'manager', department: 'engineering', mustChangePassword: true });
    await repo.insert(alice);

    expect(await repo.findById(alice.id)).toEqual(alice);
    expect(await repo.findByUsername('alice')).toEqual(alice);
    expect(await repo.findByUsername('bob')).toBeNull();
  });

  it('should keep the first row when an idempotent insert meets a taken id or username', async () => {
    await repo.insert(userRow({ username: 'system', role: 'system' }));

    await repo.insertIfAbsent(userRow({ username: 'system', role: 'ceo' }));
    await expect(repo.insert(userRow({ id: 'user-other', username: 'system' }))).rejects.toThrow();

    expect(await repo.findByUsername('system')).toMatchObject({ role: 'system' });
    expect(await repo.countByRole('ceo')).toBe(0);
  });

  it('should page accounts oldest first and find the first of a role', async () => {
    await repo.insert(userRow({ username: 'carol', role: 'ceo', createdAt: at(3) }));
    await repo.insert(userRow({ username: 'bob', role: 'ceo', createdAt: at(1) }));
    await repo.insert(userRow({ username: 'alice', createdAt: at(1) }));

    const page = await repo.page({ offset: 0, limit: 2 });

    expect(page).toMatchObject({ total: 3, items: [{ username: 'alice' }, { username: 'bob' }] });
    expect((await repo.findFirstByRole('ceo'))?.username).toBe('bob');
    expect(await repo.countByRole('ceo')).toBe(2);
  });

  it('should map a raw list row to exactly what the stored entity maps to', async () => {
    await repo.insert(userRow({ username: 'dana', mustChangePassword: true, department: 'engineering' }));
    await repo.insert(userRow({ username: 'erin', mustChangePassword: false, createdAt: at(2) }));

    const page = await repo.page({ offset: 0, limit: 10 });
    const stored = await Promise.all(['dana', 'erin'].map((name) => repo.findByUsername(name)));

    expect(JSON.stringify(page.items.map(toUserResponseFromRow))).toBe(
      JSON.stringify(stored.map((user) => toUserResponse(user as UserEntity))),
    );
  });

  it('should change only the given fields and move updated_at forward, and delete by id', async () => {
    const alice = userRow({ mustChangePassword: true, updatedAt: new Date('2020-01-01T00:00:00.000Z') });
    await repo.insert(alice);

    await repo.update(alice.id, { passwordHash: 'new-hash', mustChangePassword: false });
    const saved = await repo.findById(alice.id);
    await repo.delete(alice.id);

    expect(saved).toMatchObject({ passwordHash: 'new-hash', mustChangePassword: false, role: alice.role });
    expect(saved?.updatedAt.getTime()).toBeGreaterThan(alice.updatedAt.getTime());
    expect(await repo.findById(alice.id)).toBeNull();
  });
});
