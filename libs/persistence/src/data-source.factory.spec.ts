import { createDataSourceOptions, DEFAULT_POOL, pgPoolOptions } from './data-source.factory';

const POSTGRES = {
  backend: 'postgres' as const,
  sqlitePath: '',
  databaseUrl: 'postgres://app@db.internal:5432/synthorg',
};

/** What TypeORM hands to the pg pool: its own options first, `extra` over them. */
function poolOptionsOf(options: ReturnType<typeof createDataSourceOptions>): Record<string, unknown> {
  const { poolSize, extra } = options as { poolSize?: number; extra?: Record<string, unknown> };
  return { max: poolSize, ...extra };
}

describe('the Postgres pool of a replica', () => {
  it('should keep two connections open while idle and close the rest after ten seconds by default', () => {
    expect(DEFAULT_POOL).toEqual({ size: 10, minIdle: 2, idleSeconds: 10 });
    expect(poolOptionsOf(createDataSourceOptions(POSTGRES))).toMatchObject({
      max: 10,
      min: 2,
      idleTimeoutMillis: 10_000,
      keepAlive: true,
      keepAliveInitialDelayMillis: 30_000,
    });
  });

  it('should take the configured size, minimum and idle time, and default what is left out', () => {
    const options = poolOptionsOf(createDataSourceOptions({ ...POSTGRES, pool: { size: 25, idleSeconds: 60 } }));

    expect(options).toMatchObject({ max: 25, min: 2, idleTimeoutMillis: 60_000 });
  });

  it('should keep at most the pool size open while idle', () => {
    expect(pgPoolOptions({ size: 3, minIdle: 8, idleSeconds: 5 })).toMatchObject({ max: 3, min: 3 });
  });

  it('should keep the pool settings with prepared statements off, and pick the preparing client only when on', () => {
    const on = poolOptionsOf(createDataSourceOptions(POSTGRES));
    const off = poolOptionsOf(createDataSourceOptions({ ...POSTGRES, preparedStatements: false }));

    expect(typeof on.Client).toBe('function');
    expect(off).not.toHaveProperty('Client');
    expect(off).toMatchObject({ max: 10, min: 2, idleTimeoutMillis: 10_000 });
  });

  it('should leave the embedded SQLite database without a pool', () => {
    const options = createDataSourceOptions({ backend: 'sqlite', sqlitePath: ':memory:', databaseUrl: null });

    expect(options).not.toHaveProperty('poolSize');
    expect(options).not.toHaveProperty('extra');
  });
});
