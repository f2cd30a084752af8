import type { DataSource } from 'typeorm';

import { createDataSource, runMigrations, SettingEntity } from '@app/persistence';
import {
  DatabaseService,
  flagSetting,
  jsonSetting,
  SettingsStore,
  textSetting,
  UnitOfWork,
  UnreadableSettingError,
} from '@app/platform';
import { createTestDatabase, type TestDatabase, testBackends } from '@app/testing';

const LIST = jsonSetting('test', 'list', (parsed): string[] => (Array.isArray(parsed) ? (parsed as string[]) : []));
const FLAG = flagSetting('test', 'flag');

describe.each(testBackends())('SettingsStore and UnitOfWork on %s', (backend) => {
  let db: TestDatabase;
  let source: DataSource;
  let store: SettingsStore;
  let unitOfWork: UnitOfWork;

  beforeAll(async () => {
    db = await createTestDatabase(backend);
    source = await createDataSource(db.settings).initialize();
    await runMigrations(source);
    // The real service's manager() over this DataSource, without its connect-and-retry life cycle.
    const database = Object.create(DatabaseService.prototype) as DatabaseService;
    Object.defineProperty(database, 'dataSource', { value: source });
    store = new SettingsStore(database);
    unitOfWork = new UnitOfWork(database);
  });

  afterAll(async () => {
    await source?.destroy();
    await db?.drop();
  });

  it('should store one row per namespace and key when a setting is written twice', async () => {
    expect(await store.get(LIST)).toBeNull();
    expect(await store.has(LIST)).toBe(false);
    await store.set(LIST, ['a']);
    await store.set(LIST, ['b', 'c']);
    expect(await store.get(LIST)).toEqual(['b', 'c']);
    expect(await store.has(LIST)).toBe(true);
    const rows = await source.getRepository(SettingEntity).findBy({ namespace: 'test', key: 'list' });
    expect(rows.map((r) => r.value)).toEqual(['["b","c"]']);
  });

  it('should store a flag as the text true when it is set', async () => {
    await store.set(FLAG, true);
    expect(await store.get(FLAG)).toBe(true);
    expect((await source.getRepository(SettingEntity).findOneByOrFail({ namespace: 'test', key: 'flag' })).value).toBe(
      'true',
    );
  });

  it('should report the stored text when a value cannot be decoded', async () => {
    await store.set(textSetting('test', 'broken'), '{not json');
    const error = await store.get(jsonSetting('test', 'broken', (parsed) => parsed)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnreadableSettingError);
    expect((error as UnreadableSettingError).raw).toBe('{not json');
  });

  it('should roll back every write of the unit of work when the work throws', async () => {
    const ROLLED = textSetting('test', 'rolled_back');
    await expect(
      unitOfWork.run(async (tx) => {
        await store.set(ROLLED, 'written', tx);
        expect(await store.get(ROLLED, tx)).toBe('written');
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await store.get(ROLLED)).toBeNull();
  });

  it('should commit the writes of the unit of work when the work resolves', async () => {
    const COMMITTED = textSetting('test', 'committed');
    await unitOfWork.run((tx) => store.set(COMMITTED, 'kept', tx));
    expect(await store.get(COMMITTED)).toBe('kept');
  });
});
