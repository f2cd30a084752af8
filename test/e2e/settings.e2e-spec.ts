import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { HumanRole, SETTING_NAMESPACES } from '@app/domain';
import { SettingEntity } from '@app/persistence';
import { DatabaseService } from '@app/platform';
import { createTestDatabase, testBackends } from '@app/testing';

import { bearer, expectError, setupCeo, startTestApp, type TestApp, userWithRole } from '../support';

import { ModelRouter } from '../../apps/api/src/modules/providers';
import { SettingsSnapshot } from '../../apps/api/src/modules/settings';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

jest.setTimeout(60_000);

const S = '/api/v1/settings';
const CANARY = 'canary-secret-7f3a9c';
const HIGH_LIMITS = {
  SYNTHORG_RATE_LIMIT_AUTHENTICATED_PER_MINUTE: '100000',
  SYNTHORG_RATE_LIMIT_ANONYMOUS_PER_MINUTE: '100000',
  SYNTHORG_RATE_LIMIT_AUTH_PER_MINUTE: '10000',
  SYNTHORG_ENGINE_ENABLED: 'false',
};

function logText(t: TestApp): string {
  return readdirSync(t.logDir)
    .filter((name) => name.endsWith('.log'))
    .map((name) => readFileSync(join(t.logDir, name), 'utf8'))
    .join('\n');
}

describe.each(testBackends())('Settings on %s', (backend) => {
  let t: TestApp;
  let ceo: string;
  let manager: string;
  let observer: string;
  let pair: string;
  let yamlDir: string;

  beforeAll(async () => {
    yamlDir = mkdtempSync(join(tmpdir(), 'synthorg-yaml-'));
    const yamlFile = join(yamlDir, 'synthorg.yaml');
    writeFileSync(
      yamlFile,
      'budget:\n  reset_day: 7\n  per_task_limit: 2.5\nproviders:\n  routing:\n    strategy: fastest\n',
    );
    t = await startTestApp({
      backend,
      env: {
        ...HIGH_LIMITS,
        SYNTHORG_CONFIG_FILE: yamlFile,
        SYNTHORG_BUDGET_CURRENCY: 'USD',
        SYNTHORG_BUDGET_PER_TASK_LIMIT: '3.5',
      },
    });
    ceo = await setupCeo(t);
    manager = await userWithRole(t, ceo, HumanRole.Manager);
    observer = await userWithRole(t, ceo, HumanRole.Observer);
    pair = await userWithRole(t, ceo, HumanRole.PairProgrammer);
  });

  afterAll(async () => {
    await t?.close();
    rmSync(yamlDir, { recursive: true, force: true });
  });

  it('should list every definition of the nine namespaces, and one namespace, before /{namespace}', async () => {
    const all = await t.http.get(`${S}/_schema`).set(bearer(observer)).expect(200);
    const namespaces = new Set((all.body.data as Json[]).map((d) => d.namespace));
    expect([...namespaces].sort()).toEqual([...SETTING_NAMESPACES].sort());
    const budget = await t.http.get(`${S}/_schema/budget`).set(bearer(observer)).expect(200);
    expect(budget.body.data.find((d: Json) => d.key === 'currency')).toMatchObject({
      type: 'str',
      default: 'EUR',
      validator_pattern: '[A-Z]{3}',
      restart_required: false,
    });
    expectError((await t.http.get(`${S}/_schema/nope`).set(bearer(observer)).expect(404)).body, 3040, 'not_found');
  });

  it('should answer 404 naming an unknown namespace (3040) or key (3041)', async () => {
    expectError((await t.http.get(`${S}/nope`).set(bearer(observer)).expect(404)).body, 3040);
    expectError((await t.http.get(`${S}/budget/nope`).set(bearer(observer)).expect(404)).body, 3041);
    expectError((await t.http.put(`${S}/budget/nope`).set(bearer(ceo)).send({ value: '1' }).expect(404)).body, 3041);
    expectError((await t.http.delete(`${S}/nope/x`).set(bearer(ceo)).expect(404)).body, 3040);
  });

  it('should report each value with its source: db, then env, then yaml, then default', async () => {
    const entries = (await t.http.get(`${S}/budget`).set(bearer(observer)).expect(200)).body.data as Json[];
    const entry = (key: string) => entries.find((e) => e.definition.key === key);
    expect(entry('currency')).toMatchObject({ value: 'USD', source: 'env', updated_at: null });
    expect(entry('per_task_limit')).toMatchObject({ value: '3.5', source: 'env' });
    expect(entry('reset_day')).toMatchObject({ value: '7', source: 'yaml' });
    expect(entry('alert_warn_at')).toMatchObject({ value: '75', source: 'default' });
    await t.http.put(`${S}/budget/currency`).set(bearer(ceo)).send({ value: 'GBP' }).expect(200);
    const stored = await t.http.get(`${S}/budget/currency`).set(bearer(observer)).expect(200);
    expect(stored.body.data).toMatchObject({ value: 'GBP', source: 'db', updated_at: expect.any(String) });
    await t.http.delete(`${S}/budget/currency`).set(bearer(ceo)).expect(204);
    const back = await t.http.get(`${S}/budget/currency`).set(bearer(observer)).expect(200);
    expect(back.body.data).toMatchObject({ value: 'USD', source: 'env' });
    const all = (await t.http.get(S).set(bearer(observer)).expect(200)).body.data as Json[];
    expect(all.length).toBeGreaterThan(60);
  });

  it.each([
    ['budget', 'total_monthly', 'abc', 2040, 'budget.total_monthly: expected a number'],
    ['budget', 'reset_day', '99', 2042, 'budget.reset_day: must be between 1 and 28'],
    ['budget', 'currency', 'eur', 2043, 'budget.currency: must match'],
    ['memory', 'default_level', 'forever', 2041, 'memory.default_level: must be one of'],
    ['backup', 'enabled', 'maybe', 2040, 'backup.enabled: expected a boolean'],
    ['coordination', 'ceremony_strategy_config', '{oops', 2040, 'expected valid JSON'],
  ])('should refuse %s.%s = %s with 400 and code %d naming the key and rule', async (ns, key, value, code, text) => {
    const res = await t.http.put(`${S}/${ns}/${key}`).set(bearer(ceo)).send({ value }).expect(400);
    expectError(res.body, code, 'validation');
    expect(res.body.error).toContain(text);
  });

  it('should refuse a value that is not a string and a body without one', async () => {
    await t.http.put(`${S}/budget/reset_day`).set(bearer(ceo)).send({ value: 5 }).expect(400);
    await t.http.put(`${S}/budget/reset_day`).set(bearer(ceo)).send({}).expect(400);
  });

  it('should let every signed-in role read and only the CEO and managers write', async () => {
    for (const token of [observer, pair]) {
      await t.http.get(`${S}/budget/reset_day`).set(bearer(token)).expect(200);
      const res = await t.http.put(`${S}/budget/reset_day`).set(bearer(token)).send({ value: '3' }).expect(403);
      expectError(res.body, 1001);
      await t.http.delete(`${S}/budget/reset_day`).set(bearer(token)).expect(403);
    }
    await t.http.get(`${S}/budget`).expect(401);
    await t.http.put(`${S}/budget/reset_day`).set(bearer(manager)).send({ value: '3' }).expect(200);
    await t.http.delete(`${S}/budget/reset_day`).set(bearer(manager)).expect(204);
  });

  it('should version a setting with an ETag and refuse a stale If-Match with 409 (4002)', async () => {
    const first = await t.http.get(`${S}/coordination/base_branch`).set(bearer(ceo)).expect(200);
    const etag = first.headers.etag;
    expect(etag).toMatch(/^"[0-9a-f]+"$/);
    const put = await t.http
      .put(`${S}/coordination/base_branch`)
      .set(bearer(ceo))
      .set('If-Match', etag)
      .send({ value: 'develop' })
      .expect(200);
    expect(put.headers.etag).not.toBe(etag);
    const stale = await t.http
      .put(`${S}/coordination/base_branch`)
      .set(bearer(ceo))
      .set('If-Match', etag)
      .send({ value: 'trunk' })
      .expect(409);
    expectError(stale.body, 4002, 'conflict');
    await t.http.delete(`${S}/coordination/base_branch`).set(bearer(ceo)).set('If-Match', etag).expect(409);
    await t.http.delete(`${S}/coordination/base_branch`).set(bearer(ceo)).set('If-Match', put.headers.etag).expect(204);
    const after = await t.http.get(`${S}/coordination/base_branch`).set(bearer(ceo)).expect(200);
    expect(after.body.data).toMatchObject({ value: 'main', source: 'default' });
  });

  it('should encrypt a sensitive value at rest and keep it out of every response and log file', async () => {
    const value = JSON.stringify({ example: { api_key: CANARY } });
    const put = await t.http.put(`${S}/providers/configs`).set(bearer(ceo)).send({ value }).expect(200);
    expect(put.body.data).toMatchObject({ value: '********', source: 'db' });
    const bodies = [
      put.text,
      (await t.http.get(`${S}/providers/configs`).set(bearer(ceo))).text,
      (await t.http.get(`${S}/providers`).set(bearer(ceo))).text,
      (await t.http.get(S).set(bearer(ceo))).text,
    ];
    for (const body of bodies) {
      expect(body).not.toContain(CANARY);
    }
    const row = await t.app
      .get(DatabaseService)
      .dataSource.getRepository(SettingEntity)
      .findOneByOrFail({ namespace: 'providers', key: 'configs' });
    expect(row.value).not.toContain(CANARY);
    expect(row.value).toMatch(/^v1:/);
    await t.logging.flush();
    expect(logText(t)).not.toContain(CANARY);
    expect(t.consoleLines().join('\n')).not.toContain(CANARY);
  });

  it('should store a restart-required value without applying it, and say so', async () => {
    const snapshot = t.app.get(SettingsSnapshot);
    const running = snapshot.value('api', 'server_port');
    const put = await t.http.put(`${S}/api/server_port`).set(bearer(ceo)).send({ value: '9123' }).expect(200);
    expect(put.body.data).toMatchObject({ value: '9123', source: 'db', pending_restart: true });
    expect(put.body.data.definition.restart_required).toBe(true);
    expect(snapshot.value('api', 'server_port')).toBe(running);
    await t.http.delete(`${S}/api/server_port`).set(bearer(ceo)).expect(204);
    const back = await t.http.get(`${S}/api/server_port`).set(bearer(ceo)).expect(200);
    expect(back.body.data.pending_restart).toBe(false);
  });

  it('should rebuild the model router when the routing strategy changes, and fall back on delete', async () => {
    const router = t.app.get(ModelRouter);
    expect(router.routing.strategy).toBe('fastest');
    await t.http.put(`${S}/providers/routing_strategy`).set(bearer(ceo)).send({ value: 'smart' }).expect(200);
    expect(router.routing.strategy).toBe('smart');
    expect(t.app.get(SettingsSnapshot).value('providers', 'routing_strategy')).toBe('smart');
    await t.http.delete(`${S}/providers/routing_strategy`).set(bearer(ceo)).expect(204);
    expect(router.routing.strategy).toBe('fastest');
  });

  it('should refuse sink settings that break a sink rule with 400 naming the field', async () => {
    const res = await t.http
      .put(`${S}/observability/custom_sinks`)
      .set(bearer(ceo))
      .send({ value: JSON.stringify([{ sink_type: 'syslog' }]) })
      .expect(400);
    expectError(res.body, 2045, 'validation');
    expect(res.body.error).toContain('syslog_host');
  });

  it('should list the running sinks under observability/sinks, not as a setting key', async () => {
    const res = await t.http.get(`${S}/observability/sinks`).set(bearer(observer)).expect(200);
    const sinks = res.body.data as Json[];
    expect(sinks.find((s) => s.identifier === '__console__')).toMatchObject({ sink_type: 'console', enabled: true });
    expect(sinks.filter((s) => s.is_default)).toHaveLength(11);
  });

  it('should test candidate sink settings without applying them', async () => {
    const url = `${S}/observability/sinks/_test`;
    const ok = await t.http
      .post(url)
      .set(bearer(manager))
      .send({ custom_sinks: JSON.stringify([{ sink_type: 'http', http_url: 'http://127.0.0.1:9/logs' }]) })
      .expect(200);
    expect(ok.body.data).toEqual({ valid: true, error: null });
    const bad = await t.http
      .post(url)
      .set(bearer(ceo))
      .send({ custom_sinks: JSON.stringify([{ sink_type: 'file', file_path: 'audit.log' }]) })
      .expect(200);
    expect(bad.body.data).toMatchObject({ valid: false, error: expect.stringContaining('file_path') });
    const external = await t.http
      .post(url)
      .set(bearer(ceo))
      .send({
        sink_overrides: JSON.stringify({ 'audit.log': { rotation: { strategy: 'external', compress_rotated: true } } }),
      })
      .expect(200);
    expect(external.body.data).toMatchObject({ valid: false, error: expect.stringContaining('compress_rotated') });
    await t.http.post(url).set(bearer(observer)).send({}).expect(403);
    const running = (await t.http.get(`${S}/observability/custom_sinks`).set(bearer(ceo))).body.data;
    expect(running).toMatchObject({ value: '[]', source: 'default' });
  });
});

describe('Settings across replicas on postgres', () => {
  const run = testBackends().includes('postgres') ? it : it.skip;

  run('should apply a change made on one instance on the other', async () => {
    const db = await createTestDatabase('postgres');
    const a = await startTestApp({ backend: 'postgres', database: db, env: HIGH_LIMITS });
    let b: TestApp | undefined;
    try {
      b = await startTestApp({ backend: 'postgres', database: db, env: HIGH_LIMITS });
      const ceo = await setupCeo(a);
      const routerB = b.app.get(ModelRouter);
      expect(routerB.routing.strategy).toBe('cost_aware');
      await a.http.put(`${S}/providers/routing_strategy`).set(bearer(ceo)).send({ value: 'cheapest' }).expect(200);
      await waitFor(() => routerB.routing.strategy === 'cheapest');
      await a.http.delete(`${S}/providers/routing_strategy`).set(bearer(ceo)).expect(204);
      await waitFor(() => routerB.routing.strategy === 'cost_aware');
      // A restart-required change is not dispatched: the other replica keeps its running value.
      await a.http.put(`${S}/api/server_port`).set(bearer(ceo)).send({ value: '9200' }).expect(200);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(b.app.get(SettingsSnapshot).value('api', 'server_port')).toBe(8000);
    } finally {
      await b?.close();
      await a.close();
      await db.drop();
    }
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) {
      throw new Error('condition not met in time');
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
