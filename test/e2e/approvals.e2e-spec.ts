import { Channel, ErrorCode } from '@app/domain';
import { EventBus, subscribeTo } from '@app/platform';
import { eventually, testBackends } from '@app/testing';

import { bearer, expectError, setupCeo, startTestApp, type TestApp, userWithRole } from '../support';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const API = '/api/v1/approvals';
const ENV = { SYNTHORG_RATE_LIMIT_AUTHENTICATED_PER_MINUTE: '100000', SYNTHORG_SECURITY_APPROVAL_CHECK_SECONDS: '0.2' };

jest.setTimeout(60_000);

describe.each(testBackends())('approvals on %s', (backend) => {
  let t: TestApp;
  let ceo: string;
  let board: string;
  let observer: string;
  let manager: string;

  beforeAll(async () => {
    t = await startTestApp({ backend, env: ENV });
    ceo = await setupCeo(t);
    board = await userWithRole(t, ceo, 'board_member');
    observer = await userWithRole(t, ceo, 'observer');
    manager = await userWithRole(t, ceo, 'manager', 'manager', 'engineering');
  });

  afterAll(async () => {
    await t.close();
  });

  async function file(extra: Json = {}): Promise<Json> {
    const res = await t.http
      .post(API)
      .set(bearer(ceo))
      .send({ action_type: 'deploy:staging', title: 'Deploy', description: 'Ship it', risk_level: 'high', ...extra })
      .expect(201);
    return res.body.data as Json;
  }

  it('should answer 401 without a token and 404 (3024) for an unknown id', async () => {
    expectError((await t.http.get(API).expect(401)).body, ErrorCode.Unauthorized, 'auth');
    const res = await t.http.get(`${API}/nope`).set(bearer(ceo)).expect(404);
    expectError(res.body, ErrorCode.ApprovalNotFound, 'not_found');
    const approve = await t.http.post(`${API}/nope/approve`).set(bearer(ceo)).send({}).expect(404);
    expectError(approve.body, ErrorCode.ApprovalNotFound, 'not_found');
  });

  it('should file an item with its urgency: a TTL gives seconds_remaining, none gives no_expiry', async () => {
    const timed = await file({ ttl_seconds: 7200, task_id: 'task-9', metadata: { ticket: 'T-1' } });
    expect(timed).toMatchObject({
      action_type: 'deploy:staging',
      status: 'pending',
      requested_by: 'ceo',
      task_id: 'task-9',
      metadata: { ticket: 'T-1' },
      decided_by: null,
      decision_reason: null,
      decided_at: null,
      urgency_level: 'high',
    });
    expect(timed.seconds_remaining).toBeGreaterThan(7190);
    expect(timed.seconds_remaining).toBeLessThanOrEqual(7200);
    const soon = await file({ ttl_seconds: 600 });
    expect(soon.urgency_level).toBe('critical');
    const open = await file({ ttl_seconds: 5 * 3600 });
    expect(open.urgency_level).toBe('normal');
    const forever = await file();
    expect(forever).toMatchObject({ expires_at: null, seconds_remaining: null, urgency_level: 'no_expiry' });
    const read = (await t.http.get(`${API}/${timed.id}`).set(bearer(observer)).expect(200)).body.data as Json;
    expect(read).toMatchObject({ id: timed.id, urgency_level: 'high' });
  });

  it.each([
    ['an action type without a category', { action_type: 'deploy' }],
    ['an action type over 128 characters', { action_type: 'x'.repeat(60) + ':' + 'y'.repeat(68) }],
    ['an empty title', { title: '' }],
    ['a title over 256 characters', { title: 't'.repeat(257) }],
    ['a description over 4096 characters', { description: 'd'.repeat(4097) }],
    ['an unknown risk level', { risk_level: 'extreme' }],
    ['a TTL under 60 seconds', { ttl_seconds: 59 }],
    ['a TTL over a week', { ttl_seconds: 604_801 }],
    ['a task id over 128 characters', { task_id: 't'.repeat(129) }],
    ['metadata that is not an object', { metadata: 'nope' }],
  ])('should refuse %s with 400', async (_label, extra) => {
    const res = await t.http
      .post(API)
      .set(bearer(ceo))
      .send({ action_type: 'deploy:staging', title: 'Deploy', description: '', risk_level: 'low', ...extra })
      .expect(400);
    expect(res.body.success).toBe(false);
  });

  it('should refuse metadata beyond 20 keys or 256 characters with 2056', async () => {
    const many = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v']));
    const body = { action_type: 'deploy:staging', title: 'Deploy', description: '', risk_level: 'low' };
    const tooMany = await t.http
      .post(API)
      .set(bearer(ceo))
      .send({ ...body, metadata: many })
      .expect(400);
    expectError(tooMany.body, ErrorCode.ApprovalMetadataInvalid);
    const long = await t.http
      .post(API)
      .set(bearer(ceo))
      .send({ ...body, metadata: { k: 'v'.repeat(257) } });
    expectError(long.body, ErrorCode.ApprovalMetadataInvalid);
  });

  it('should filter by status, risk level and action type, and page', async () => {
    const low = await file({ risk_level: 'low', action_type: 'docs:write' });
    await file({ risk_level: 'low', action_type: 'docs:write' });
    const byRisk = await t.http.get(`${API}?risk_level=low&action_type=docs:write&limit=1`).set(bearer(ceo));
    expect(byRisk.status).toBe(200);
    expect(byRisk.body.pagination).toEqual({ total: 2, offset: 0, limit: 1 });
    expect(byRisk.body.data[0]).toMatchObject({ id: low.id, seconds_remaining: null, urgency_level: 'no_expiry' });
    await t.http.post(`${API}/${low.id}/approve`).set(bearer(ceo)).send({}).expect(200);
    const approved = (await t.http.get(`${API}?status=approved`).set(bearer(ceo)).expect(200)).body.data as Json[];
    expect(approved.map((a) => a.id)).toEqual([low.id]);
    await t.http.get(`${API}?status=maybe`).set(bearer(ceo)).expect(400);
    await t.http.get(`${API}?risk_level=extreme`).set(bearer(ceo)).expect(400);
    await t.http.get(`${API}?limit=0`).set(bearer(ceo)).expect(400);
  });

  it('should let the Board Member approve and refuse the Observer and a manager without the department', async () => {
    const item = await file();
    expectError((await t.http.post(`${API}/${item.id}/approve`).set(bearer(observer)).send({}).expect(403)).body, 1001);
    expectError((await t.http.post(`${API}/${item.id}/approve`).set(bearer(manager)).send({}).expect(403)).body, 1001);
    await t.http.post(API).set(bearer(observer)).send({}).expect(403);
    const res = await t.http.post(`${API}/${item.id}/approve`).set(bearer(board)).send({ comment: 'fine' }).expect(200);
    expect(res.body.data).toMatchObject({ status: 'approved', decided_by: 'board_member', decision_reason: 'fine' });
    expect(res.body.data.decided_at).not.toBeNull();
    const again = await t.http.post(`${API}/${item.id}/reject`).set(bearer(ceo)).send({ reason: 'no' }).expect(409);
    expectError(again.body, ErrorCode.ApprovalAlreadyDecided, 'conflict');
  });

  it('should require a reason to reject and bound the comment', async () => {
    const item = await file();
    await t.http.post(`${API}/${item.id}/reject`).set(bearer(ceo)).send({}).expect(400);
    await t.http.post(`${API}/${item.id}/reject`).set(bearer(ceo)).send({ reason: '' }).expect(400);
    await t.http
      .post(`${API}/${item.id}/approve`)
      .set(bearer(ceo))
      .send({ comment: 'c'.repeat(4097) })
      .expect(400);
    const res = await t.http
      .post(`${API}/${item.id}/reject`)
      .set(bearer(ceo))
      .send({ reason: 'too risky' })
      .expect(200);
    expect(res.body.data).toMatchObject({ status: 'rejected', decision_reason: 'too risky', decided_by: 'ceo' });
  });

  it('should let exactly one of a concurrent approve and reject win', async () => {
    for (let round = 0; round < 5; round += 1) {
      const item = await file();
      const [approve, reject] = await Promise.all([
        t.http.post(`${API}/${item.id}/approve`).set(bearer(ceo)).send({}),
        t.http.post(`${API}/${item.id}/reject`).set(bearer(board)).send({ reason: 'no' }),
      ]);
      const statuses = [approve.status, reject.status].sort();
      expect(statuses).toEqual([200, 409]);
      const loser = approve.status === 409 ? approve : reject;
      expectError(loser.body, ErrorCode.ApprovalAlreadyDecided, 'conflict');
      const stored = (await t.http.get(`${API}/${item.id}`).set(bearer(ceo))).body.data as Json;
      expect(stored.status).toBe(approve.status === 200 ? 'approved' : 'rejected');
    }
  });

  it('should expire items under the deny policy and answer 409 (4023) to a late decision', async () => {
    const put = (key: string, value: string) =>
      t.http.put(`/api/v1/settings/security/${key}`).set(bearer(ceo)).send({ value }).expect(200);
    await put('approval_timeout_policy', 'deny');
    await put('approval_timeout_minutes', '0.01');
    try {
      const item = await file();
      expect(item.expires_at).not.toBeNull();
      const expired = await waitFor(item.id as string, 'expired');
      expect(expired).toMatchObject({ decided_by: 'system', seconds_remaining: 0, urgency_level: 'critical' });
      const late = await t.http.post(`${API}/${item.id}/approve`).set(bearer(ceo)).send({}).expect(409);
      expectError(late.body, ErrorCode.ApprovalExpired, 'conflict');
    } finally {
      await put('approval_timeout_policy', 'wait');
    }
  });

  it('should approve low and deny medium items under the tiered policy, and keep high ones waiting', async () => {
    const put = (key: string, value: string) =>
      t.http.put(`/api/v1/settings/security/${key}`).set(bearer(ceo)).send({ value }).expect(200);
    const bad = await t.http
      .put('/api/v1/settings/security/approval_tiers')
      .set(bearer(ceo))
      .send({ value: '{"low":{"timeout_minutes":-1}}' })
      .expect(400);
    expectError(bad.body, ErrorCode.ApprovalPolicyInvalid);
    await put(
      'approval_tiers',
      JSON.stringify({
        low: { timeout_minutes: 0.01, on_timeout: 'approve' },
        medium: { timeout_minutes: 0.01, on_timeout: 'deny' },
        high: { timeout_minutes: null },
      }),
    );
    await put('approval_timeout_policy', 'tiered');
    try {
      const low = await file({ risk_level: 'low' });
      const medium = await file({ risk_level: 'medium' });
      const high = await file({ risk_level: 'high' });
      expect(high.urgency_level).toBe('no_expiry');
      await waitFor(low.id as string, 'approved');
      await waitFor(medium.id as string, 'expired');
      const still = (await t.http.get(`${API}/${high.id}`).set(bearer(ceo))).body.data as Json;
      expect(still.status).toBe('pending');
    } finally {
      await put('approval_timeout_policy', 'wait');
    }
  });

  it('should escalate along the chain and deny when it is exhausted, announcing each step', async () => {
    const seen: string[] = [];
    const off = subscribeTo(t.app.get(EventBus), Channel.Approvals, (event) => {
      seen.push(`${event.event_type}:${(event.payload.approval as { id: string }).id}`);
    });
    const put = (key: string, value: string) =>
      t.http.put(`/api/v1/settings/security/${key}`).set(bearer(ceo)).send({ value }).expect(200);
    await put(
      'approval_escalation_chain',
      JSON.stringify([
        { role: 'manager', timeout_minutes: 0.01 },
        { role: 'ceo', timeout_minutes: 0.01 },
      ]),
    );
    await put('approval_timeout_policy', 'escalation');
    try {
      const item = await file();
      await waitFor(item.id as string, 'expired');
      // The expiry is announced after its commit: wait for the announcement, not only the stored status.
      await eventually(
        () => Promise.resolve(seen.length),
        (n) => n >= 3,
      );
      expect(seen).toEqual([
        `approval.created:${item.id}`,
        `approval.escalated:${item.id}`,
        `approval.expired:${item.id}`,
      ]);
    } finally {
      off();
      await put('approval_timeout_policy', 'wait');
    }
  });

  async function waitFor(id: string, status: string): Promise<Json> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const item = (await t.http.get(`${API}/${id}`).set(bearer(ceo))).body.data as Json;
      if (item.status === status || Date.now() > deadline) {
        expect(item.status).toBe(status);
        return item;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
});
