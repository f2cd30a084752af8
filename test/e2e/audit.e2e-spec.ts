import { ErrorCode } from '@app/domain';
import { DatabaseService } from '@app/platform';
import { testBackends } from '@app/testing';

import { bearer, expectError, setupCeo, startTestApp, type TestApp, userWithRole } from '../support';
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
    expect(byActor.every((r) => r.actor === 'ceo' && r.action === 'approval.created')).toBe(true);
    const verified = await t.http.get('/api/v1/audit/verify').set(bearer(ceo)).expect(200);
    expect(verified.body.data).toEqual({ ok: true, checked: 6, broken_seq: null, reason: null });
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
