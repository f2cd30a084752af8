import { CountCache, DEFERRED_FROM_OFFSET, pagedQuery, TaskEntity } from '@app/persistence';
import { type MigratedDatabase, openMigratedDatabase, taskRow, testBackends } from '@app/testing';

const COUNT = DEFERRED_FROM_OFFSET + 700;
const LIMIT = 150;

describe.each(testBackends())('pagedQuery on %s', (backend) => {
  let store: MigratedDatabase;
  /** Every id in the order each case asks for, read whole by TypeORM. */
  let whole: { desc: string[]; mixed: string[]; created: string[] };

  beforeAll(async () => {
    store = await openMigratedDatabase(backend);
    const start = Date.UTC(2026, 0, 2);
    // Inserted out of order, with created_at shared by three rows at a time.
    const rows = Array.from({ length: COUNT }, (_, i) => {
      const n = (i * 7919) % COUNT;
      return taskRow({
        id: `paged-${String(n).padStart(5, '0')}`,
        status: n % 4 === 0 ? 'assigned' : 'created',
        createdAt: new Date(start + Math.floor(n / 3) * 1000),
      });
    });
    for (let from = 0; from < COUNT; from += 200) {
      await store.source.getRepository(TaskEntity).insert(rows.slice(from, from + 200));
    }
    const ids = async (order: Record<string, 'ASC' | 'DESC'>, createdOnly = false): Promise<string[]> => {
      const all = await store.source
        .getRepository(TaskEntity)
        .find({ where: createdOnly ? { status: 'created' } : {}, order, select: { id: true } });
      return all.map((task) => task.id);
    };
    whole = {
      desc: await ids({ createdAt: 'DESC', id: 'DESC' }),
      mixed: await ids({ createdAt: 'DESC', id: 'ASC' }),
      created: await ids({ createdAt: 'DESC', id: 'DESC' }, true),
    };
  });

  afterAll(() => store?.close());

  /** Every page of `orderBy` (and the statements read), through a data source with a count cache. */
  async function everyPage(orderBy: string[], where: string[] = [], params = {}): Promise<[string[][], string[]]> {
    const manager = store.source.manager;
    const query = manager.query.bind(manager);
    const statements: string[] = [];
    const spy = jest.spyOn(manager, 'query').mockImplementation((sql: string, bound) => {
      statements.push(sql);
      return query(sql, bound);
    });
    try {
      const counts = new CountCache();
      const pages: string[][] = [];
      for (let offset = 0; offset < COUNT + LIMIT; offset += LIMIT) {
        const page = await pagedQuery<{ id: string }>({
          source: store.source,
          table: 'tasks',
          columns: ['id', 'title'],
          where,
          params,
          orderBy,
          offset,
          limit: LIMIT,
          counts,
        });
        pages.push(page.rows.map((row) => row.id));
      }
      return [pages, statements];
    } finally {
      spy.mockRestore();
    }
  }

  const slices = (ids: string[]): string[][] =>
    Array.from({ length: Math.ceil((COUNT + LIMIT) / LIMIT) }, (_, i) => ids.slice(i * LIMIT, (i + 1) * LIMIT));

  it('should page a descending order as the whole order slices it, deep pages from a known row', async () => {
    const [pages, statements] = await everyPage(['created_at DESC', 'id DESC']);

    expect(pages).toEqual(slices(whole.desc));
    expect(statements.filter((sql) => sql.includes('__anchor')).length).toBeGreaterThan(3);
  });

  it('should page a filtered descending order the same way', async () => {
    const [pages] = await everyPage(['created_at DESC', 'id DESC'], ['status = :status'], { status: 'created' });

    expect(pages).toEqual(slices(whole.created));
  });

  it('should page an order of mixed directions from the start every time, deep pages through their keys', async () => {
    const [pages, statements] = await everyPage(['created_at DESC', 'id ASC']);

    expect(pages).toEqual(slices(whole.mixed));
    expect(statements.some((sql) => sql.includes('__anchor'))).toBe(false);
    expect(statements.filter((sql) => sql.includes(' IN (SELECT')).length).toBeGreaterThan(3);
  });

  it('should read a deep page through its keys inside a unit of work, never from a known row', async () => {
    const counts = new CountCache();
    const remember = jest.spyOn(counts, 'rememberPosition');
    const read = (offset: number) =>
      store.source.transaction((manager) =>
        pagedQuery<{ id: string }>({
          source: manager,
          table: 'tasks',
          columns: ['id'],
          orderBy: ['created_at DESC', 'id DESC'],
          offset,
          limit: 3,
          counts,
        }),
      );

    await read(DEFERRED_FROM_OFFSET);
    const page = await read(DEFERRED_FROM_OFFSET + 3);

    expect(page.rows.map((row) => row.id)).toEqual(
      whole.desc.slice(DEFERRED_FROM_OFFSET + 3, DEFERRED_FROM_OFFSET + 6),
    );
    expect(page.total).toBe(COUNT);
    expect(remember).not.toHaveBeenCalled(); // a unit of work's rows may differ from what others see
  });
});
