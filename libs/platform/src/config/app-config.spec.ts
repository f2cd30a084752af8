import { buildAppConfig, ConfigError } from './app-config';
import type { ConfigSources } from './config-sources';

const SECRET = 'a-signing-secret-of-at-least-32-characters';

const build = (env: Record<string, string> = {}, yaml: Record<string, unknown> = {}) =>
  buildAppConfig({
    env: { SYNTHORG_JWT_SECRET: SECRET, ...env },
    yaml,
    yamlPath: null,
    yamlError: null,
    cwd: '/srv/synthorg',
  } satisfies ConfigSources);

describe('the Postgres pools in the configuration', () => {
  it('should default the service pool and the queue pool to ten connections, two kept idle, ten idle seconds', () => {
    const { persistence } = build();

    expect(persistence.pool).toEqual({ size: 10, minIdle: 2, idleSeconds: 10 });
    expect(persistence.queuePool).toEqual({ size: 10, minIdle: 2, idleSeconds: 10 });
  });

  it('should read the variables first and the YAML keys after them', () => {
    const yaml = { persistence: { pool_size: 30, pool_min_idle: 4, pool_idle_seconds: 120, queue_pool_size: 6 } };

    expect(build({}, yaml).persistence).toMatchObject({
      pool: { size: 30, minIdle: 4, idleSeconds: 120 },
      queuePool: { size: 6, minIdle: 4, idleSeconds: 120 },
    });
    expect(
      build({ SYNTHORG_DB_POOL_SIZE: '40', SYNTHORG_DB_POOL_MIN_IDLE: '0', SYNTHORG_DB_QUEUE_POOL_SIZE: '3' }, yaml)
        .persistence,
    ).toMatchObject({
      pool: { size: 40, minIdle: 0, idleSeconds: 120 },
      queuePool: { size: 3, minIdle: 0, idleSeconds: 120 },
    });
  });

  it('should refuse to start with more connections kept idle than the pool holds, naming both settings', () => {
    const attempt = () => build({ SYNTHORG_DB_POOL_SIZE: '3', SYNTHORG_DB_POOL_MIN_IDLE: '5' });

    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/SYNTHORG_DB_POOL_MIN_IDLE.*5 connections.*SYNTHORG_DB_POOL_SIZE.*= 3/);
  });

  it('should let the queue pool be smaller than the minimum kept idle (it keeps what fits)', () => {
    expect(build({ SYNTHORG_DB_QUEUE_POOL_SIZE: '1' }).persistence.queuePool).toEqual({
      size: 1,
      minIdle: 2,
      idleSeconds: 10,
    });
  });

  it.each([
    ['SYNTHORG_DB_POOL_SIZE', '0'],
    ['SYNTHORG_DB_POOL_SIZE', 'ten'],
    ['SYNTHORG_DB_POOL_MIN_IDLE', '-1'],
    ['SYNTHORG_DB_POOL_IDLE_SECONDS', '0'],
    ['SYNTHORG_DB_POOL_IDLE_SECONDS', '1.5'],
    ['SYNTHORG_DB_QUEUE_POOL_SIZE', '1001'],
  ])('should name %s when it is malformed (%s)', (name, value) => {
    expect(() => build({ [name]: value })).toThrow(new RegExp(name));
  });
});
