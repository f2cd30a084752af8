import { HumanRole } from '@app/domain';
import { testBackends } from '@app/testing';

import { bearer, expectError, setupCeo, startTestApp, type TestApp, userWithRole } from '../support';

jest.setTimeout(60_000);

const URL = '/api/v1/settings/security';

describe.each(testBackends())('Security settings export and import on %s', (backend) => {
  let t: TestApp;
  let ceo: string;
  let manager: string;
  let observer: string;

  beforeAll(async () => {
    t = await startTestApp({
      backend,
      env: { SYNTHORG_RATE_LIMIT_AUTHENTICATED_PER_MINUTE: '100000', SYNTHORG_ENGINE_ENABLED: 'false' },
    });
    ceo = await setupCeo(t);
    manager = await userWithRole(t, ceo, HumanRole.Manager);
    observer = await userWithRole(t, ceo, HumanRole.Observer);
  });

  afterAll(async () => {
    await t?.close();
  });

  it('should export every security setting with its typed value', async () => {
    const res = await t.http.get(`${URL}/export`).set(bearer(observer)).expect(200);
    const schema = await t.http.get('/api/v1/settings/_schema/security').set(bearer(observer)).expect(200);
    const keys = (schema.body.data as Array<{ key: string }>).map((d) => d.key).sort();
    expect(Object.keys(res.body.data.config as object).sort()).toEqual(keys);
    expect(res.body.data).toMatchObject({
      config: {
        enabled: true,
        audit_enabled: true,
        post_tool_scanning_enabled: true,
        output_scan_policy_type: 'autonomy_tiered',
        audit_retention_days: 730,
        retention_cleanup_paused: false,
      },
      exported_at: expect.any(String),
      custom_policies_warning: null,
    });
    expect(Number.isNaN(Date.parse(res.body.data.exported_at as string))).toBe(false);
  });

  it('should import a document as stored values and answer with the new export', async () => {
    const res = await t.http
      .post(`${URL}/import`)
      .set(bearer(manager))
      .send({ config: { audit_retention_days: 90, output_scan_policy_type: 'redact', enabled: 'false' } })
      .expect(200);
    expect(res.body.data.config).toMatchObject({
      audit_retention_days: 90,
      output_scan_policy_type: 'redact',
      enabled: false,
      audit_enabled: true,
    });
    const entry = await t.http.get(`${URL}/audit_retention_days`).set(bearer(observer)).expect(200);
    expect(entry.body.data).toMatchObject({ value: '90', source: 'db' });
  });

  it('should change nothing when one value of the document is invalid', async () => {
    const before = (await t.http.get(`${URL}/export`).set(bearer(ceo)).expect(200)).body.data.config;
    const res = await t.http
      .post(`${URL}/import`)
      .set(bearer(ceo))
      .send({ config: { audit_enabled: false, audit_retention_days: 99999 } })
      .expect(400);
    expectError(res.body, 2042, 'validation');
    expect(res.body.error).toContain('config.audit_retention_days');
    const after = (await t.http.get(`${URL}/export`).set(bearer(ceo)).expect(200)).body.data.config;
    expect(after).toEqual(before);
  });

  it.each([
    [{ no_such_key: true }, 2046, 'config.no_such_key'],
    [{ enabled: null }, 2046, 'config.enabled'],
    [{}, 2046, 'config'],
    [{ enabled: 'maybe' }, 2040, 'config.enabled'],
    [{ output_scan_policy_type: 'log-only' }, 2041, 'config.output_scan_policy_type'],
  ])('should refuse the document %j with 400 and code %d naming %s', async (config, code, field) => {
    const res = await t.http.post(`${URL}/import`).set(bearer(ceo)).send({ config }).expect(400);
    expectError(res.body, code, 'validation');
    expect(res.body.error).toContain(field);
  });

  it('should refuse a body without a config object', async () => {
    await t.http.post(`${URL}/import`).set(bearer(ceo)).send({}).expect(400);
    await t.http.post(`${URL}/import`).set(bearer(ceo)).send({ config: 'enabled=true' }).expect(400);
  });

  it('should let every signed-in human export and only the CEO and managers import', async () => {
    await t.http.get(`${URL}/export`).expect(401);
    await t.http
      .post(`${URL}/import`)
      .send({ config: { enabled: true } })
      .expect(401);
    const denied = await t.http
      .post(`${URL}/import`)
      .set(bearer(observer))
      .send({ config: { enabled: true } })
      .expect(403);
    expectError(denied.body, 1001);
  });
});
