import { ErrorCode } from '@app/domain';
import { DatabaseService } from '@app/platform';
import { testBackends } from '@app/testing';

import {
  bearer,
  expectError,
  NEW_PASSWORD,
  setupCeo,
  startTestApp,
  TEST_PASSWORD,
  type TestApp,
  userWithRole,
} from '../support';
import { AuditRetention } from '../../apps/api/src/modules/audit';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

jest.setTimeout(60_000);

describe.each(testBackends())('audit trail on %s', (backend) => {
  let t: TestApp;
  let ceo: string;
  let board: string;
  let observer: string;

  beforeAll(async () => {
    t = await startTestApp({ backend, env: { SYNTHORG_RATE_LIMIT_AUTHENTICATED_PER_MINUTE: '100000' } });
    ceo = await setupCeo(t);
    board = await userWithRole(t, ceo, 'board_member');
    observer = await userWithRole(t, ceo, 'observer');
  });

  afterAll(async () => {
    await t.close();
  });

  async function fileAndDecide(): Promise<string> {
    const item = await t.http
      .post('/api/v1/approvals')
      .set(bearer(ceo))
      .send({ action_type: 'deploy:staging', title: 'Deploy', description: '', risk_level: 'high' })
      .expect(201);
    const id = item.body.data.id as string;
    await t.http.post(`/api/v1/approvals/${id}/reject`).set(bearer(board)).send({ reason: 'no' }).expect(200);
    return id;
  }

  it('should record approval events as a verifiable chain the CEO and the Board Member can read', async () => {
    const id = await fileAndDecide();
    await Promise.all([fileAndDecide(), fileAndDecide()]);
    const res = await t.http.get(`/api/v1/audit?action=approval.decided`).set(bearer(board)).expect(200);
    const rows = res.body.data as Json[];
    expect(res.body.pagination.total).toBe(3);
    const mine = rows.find((r) => r.target === `approval:${id}`) as Json;
    expect(mine).toMatchObject({
      actor: 'board_member',
      outcome: 'denied',
      details: { status: 'rejected', reason: 'no' },
    });
    expect(mine.hash).toMatch(/^[0-9a-f]{64}$/);
    const byActor = (await t.http.get('/api/v1/audit?actor=ceo').set(bearer(ceo)).expect(200)).body.data as Json[];
    expect(byActor.every((r) => r.actor === 'ceo')).toBe(true);
    expect(byActor.filter((r) => r.action === 'approval.created')).toHaveLength(3);
    // Every row so far: the users made for this file (their creation and logins) and the approvals.
    const total = (await t.http.get('/api/v1/audit').set(bearer(ceo)).expect(200)).body.pagination.total as number;
    const verified = await t.http.get('/api/v1/audit/verify').set(bearer(ceo)).expect(200);
    expect(verified.body.data).toEqual({ ok: true, checked: total, broken_seq: null, reason: null });
  });

  it('should record logins, a logout, user changes, a settings change and a provider secret change', async () => {
    const since = new Date(Date.now() - 1000).toISOString();
    await t.http
      .post('/api/v1/auth/login')
      .send({ username: 'board_member', password: 'wrong-password-123' })
      .expect(401);
    const session = await t.http
      .post('/api/v1/auth/login')
      .send({ username: 'board_member', password: NEW_PASSWORD })
      .expect(200);
    await t.http
      .post('/api/v1/auth/logout')
      .set(bearer(session.body.data.token as string))
      .expect(204);
    const user = await t.http
      .post('/api/v1/users')
      .set(bearer(ceo))
      .send({ username: 'temp', password: TEST_PASSWORD, role: 'observer' })
      .expect(201);
    const userId = user.body.data.id as string;
    await t.http.patch(`/api/v1/users/${userId}`).set(bearer(ceo)).send({ role: 'board_member' }).expect(200);
    await t.http.delete(`/api/v1/users/${userId}`).set(bearer(ceo)).expect(204);
    await t.http.put('/api/v1/settings/budget/currency').set(bearer(ceo)).send({ value: 'GBP' }).expect(200);
    await t.http
      .post('/api/v1/providers')
      .set(bearer(ceo))
      .send({
        name: 'audited',
        gateway_provider: 'openai',
        auth_type: 'api_key',
        api_key: 'sk-audited-secret-value',
        base_url: 'http://127.0.0.1:9/v1',
        models: [{ id: 'm', cost_per_1k_input: 1, cost_per_1k_output: 1, max_context: 8000 }],
      })
      .expect(201);
    await t.http
      .put('/api/v1/providers/audited')
      .set(bearer(ceo))
      .send({ api_key: 'sk-rotated-secret-value' })
      .expect(200);

    const rows = (await t.http.get(`/api/v1/audit?since=${since}&limit=100`).set(bearer(ceo)).expect(200)).body
      .data as Json[];
    const seen = rows.map((r) => [r.action, r.actor, r.outcome]);
    expect(seen).toEqual(
      expect.arrayContaining([
        ['auth.login', 'board_member', 'failure'],
        ['auth.login', 'board_member', 'success'],
        ['auth.logout', 'board_member', 'success'],
        ['user.created', 'ceo', 'success'],
        ['user.role_changed', 'ceo', 'success'],
        ['user.deleted', 'ceo', 'success'],
        ['setting.changed', 'ceo', 'success'],
        ['provider.created', 'ceo', 'success'],
        ['provider.secret_changed', 'ceo', 'success'],
      ]),
    );
    expect(rows.find((r) => r.action === 'setting.changed')).toMatchObject({
      target: 'setting:budget.currency',
      details: { value: 'GBP' },
    });
    expect(rows.find((r) => r.action === 'provider.secret_changed')).toMatchObject({
      target: 'provider:audited',
      details: { changed_fields: ['api_key'] },
    });
    // Secrets never reach the trail.
    expect(JSON.stringify(rows)).not.toMatch(/sk-(audited|rotated)-secret-value|wrong-password-123/);
    const verified = await t.http.get('/api/v1/audit/verify').set(bearer(ceo)).expect(200);
    expect(verified.body.data.ok).toBe(true);
  });

  it('should refuse other roles and a reversed time range', async () => {
    expectError((await t.http.get('/api/v1/audit').set(bearer(observer)).expect(403)).body, 1001);
    expectError((await t.http.get('/api/v1/audit/verify').set(bearer(observer)).expect(403)).body, 1001);
    const since = new Date().toISOString();
    const until = new Date(Date.now() - 60_000).toISOString();
    const res = await t.http.get(`/api/v1/audit?since=${since}&until=${until}`).set(bearer(ceo)).expect(400);
    expectError(res.body, ErrorCode.AuditRangeInvalid);
    await t.http.get('/api/v1/audit?since=yesterday').set(bearer(ceo)).expect(400);
  });

  it('should name the row edited directly in the database, and the row after a deleted one', async () => {
    const source = t.app.get(DatabaseService).dataSource;
    await source.query(`UPDATE audit_entries SET actor = 'intruder' WHERE seq = 3`);
    const edited = await t.http.get('/api/v1/audit/verify').set(bearer(board)).expect(200);
    expect(edited.body.data).toMatchObject({ ok: false, broken_seq: 3, reason: 'hash_mismatch' });
    await source.query(`DELETE FROM audit_entries WHERE seq = 3`);
    const deleted = await t.http.get('/api/v1/audit/verify').set(bearer(board)).expect(200);
    expect(deleted.body.data).toMatchObject({ ok: false, broken_seq: 4, reason: 'gap' });
  });

  it('should keep the chain verifiable after retention prunes its start, and notice a forged start', async () => {
    await fileAndDecide();
    const source = t.app.get(DatabaseService).dataSource;
    const before = await source.query<{ n: string | number }[]>('SELECT COUNT(*) AS n FROM audit_entries');
    // A pass as if the 730-day default retention had run out for every row so far.
    const pruned = await t.app.get(AuditRetention).run(new Date(Date.now() + 731 * 24 * 3_600_000));
    expect(pruned).toBe(Number(before[0].n));
    const kept = (await t.http.get('/api/v1/audit').set(bearer(ceo)).expect(200)).body.data as Json[];
    expect(kept.map((r) => r.action)).toEqual(['audit.pruned']);
    const ok = await t.http.get('/api/v1/audit/verify').set(bearer(ceo)).expect(200);
    expect(ok.body.data).toMatchObject({ ok: true, broken_seq: null });
    await fileAndDecide();
    await source.query(`DELETE FROM audit_entries WHERE action = 'audit.pruned'`);
    const forged = await t.http.get('/api/v1/audit/verify').set(bearer(ceo)).expect(200);
    expect(forged.body.data).toMatchObject({ ok: false, reason: 'link_mismatch' });
  });
});
