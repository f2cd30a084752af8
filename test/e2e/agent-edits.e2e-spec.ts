import { testBackends } from '@app/testing';

import { bearer, expectError } from '../support';
import { openClient, wsUrl } from '../integration/events/ws-test-client';
import { AgentEditsScene, type Json } from './agent-edits-scene';

/** PATCH /agents/{agent_name}: each field group edited and read back, the career log, audit, events and If-Match. */
describe.each(testBackends())('agent edits on %s', (backend) => {
  const scene = new AgentEditsScene(backend);
  let senior: Json;
  let ctoName: string;

  beforeAll(async () => {
    await scene.start();
    senior = scene.agents.senior;
    ctoName = scene.agents.cto.name as string;
  });

  afterAll(async () => {
    await scene.close();
  });

  it('should give an agent an ETag that its reads and edits carry', async () => {
    const { etag } = await scene.get(senior.name as string);
    expect(etag).toMatch(/^"agent-[0-9a-f]{8}-v\d+"$/);
    expect((await scene.get((senior.name as string).toUpperCase())).etag).toBe(etag);
  });

  it('should change the model (provider, model id by alias, temperature, max tokens, fallback) and read it back', async () => {
    const before = await scene.get(senior.name as string);
    const res = await scene
      .patch(senior.name as string, {
        model: { provider: 'mock', model_id: 'medium', temperature: 0.2, max_tokens: 2048, fallback_model: 'small' },
      })
      .expect(200);
    const model = {
      provider: 'mock',
      model_id: 'mock-medium',
      temperature: 0.2,
      max_tokens: 2048,
      fallback_model: 'small',
    };
    expect(res.body.data.model).toEqual(model);
    expect(res.headers.etag).not.toBe(before.etag);
    const after = await scene.get(senior.name as string);
    expect(after.agent.model).toEqual(model);
    expect(after.etag).toBe(res.headers.etag);
    // Only the given fields change; null clears the fallback.
    await scene.patch(senior.name as string, { model: { temperature: 1.5, fallback_model: null } }).expect(200);
    expect((await scene.get(senior.name as string)).agent.model).toEqual({
      ...model,
      temperature: 1.5,
      fallback_model: null,
    });
  });

  it('should take a preset personality, then single fields on top of it (the agent then has no preset)', async () => {
    const preset = (
      await scene.t.http.get('/api/v1/personalities/presets/visionary_leader').set(bearer(scene.tokens.ceo)).expect(200)
    ).body.data as Json;
    await scene.patch(senior.name as string, { personality_preset: 'Visionary_Leader' }).expect(200);
    const withPreset = (await scene.get(senior.name as string)).agent;
    expect(withPreset.personality_preset).toBe('visionary_leader');
    expect(withPreset.personality).toMatchObject({
      traits: preset.traits,
      risk_tolerance: preset.risk_tolerance,
      openness: preset.openness,
    });
    await scene.patch(senior.name as string, { personality: { verbosity: 'terse', openness: 0.1 } }).expect(200);
    const custom = (await scene.get(senior.name as string)).agent;
    expect(custom.personality_preset).toBeNull();
    expect(custom.personality).toMatchObject({ verbosity: 'terse', openness: 0.1, traits: preset.traits });
    // A preset with fields: the preset's personality, the fields over it.
    await scene
      .patch(senior.name as string, { personality_preset: 'eager_learner', personality: { creativity: 'low' } })
      .expect(200);
    const mixed = (await scene.get(senior.name as string)).agent;
    expect(mixed).toMatchObject({ personality_preset: null, personality: { creativity: 'low' } });
  });

  it('should change tool access, memory level and authority, group by group', async () => {
    await scene
      .patch(senior.name as string, {
        tools: { access_level: 'elevated', allowed: ['send_message'], denied: ['run_command'] },
        memory: { type: 'persistent', retention_days: 30 },
      })
      .expect(200);
    await scene
      .patch(senior.name as string, {
        authority: {
          can_approve: ['code:write'],
          reports_to: scene.agents.cto.name,
          can_delegate_to: ['Full-Stack Developer'],
          budget_limit: 5,
        },
      })
      .expect(200);
    let agent = (await scene.get(senior.name as string)).agent;
    expect(agent.tools).toEqual({ access_level: 'elevated', allowed: ['send_message'], denied: ['run_command'] });
    expect(agent.memory).toEqual({ type: 'persistent', retention_days: 30 });
    expect(agent.authority).toEqual({
      can_approve: ['code:write'],
      reports_to: scene.agents.cto.name,
      can_delegate_to: ['Full-Stack Developer'],
      budget_limit: 5,
    });
    await scene
      .patch(senior.name as string, {
        memory: { retention_days: null },
        authority: { reports_to: null },
        tools: { denied: [] },
      })
      .expect(200);
    agent = (await scene.get(senior.name as string)).agent;
    expect(agent.memory).toEqual({ type: 'persistent', retention_days: null });
    expect(agent.authority).toMatchObject({ reports_to: null, budget_limit: 5 });
    expect(agent.tools).toEqual({ access_level: 'elevated', allowed: ['send_message'], denied: [] });
  });

  it('should set a monthly budget limit and clear it with null', async () => {
    await scene.patch(senior.name as string, { budget_limit_monthly: 120.5 }).expect(200);
    expect((await scene.get(senior.name as string)).agent.budget_limit_monthly).toBe(120.5);
    await scene.patch(senior.name as string, { budget_limit_monthly: null }).expect(200);
    expect((await scene.get(senior.name as string)).agent.budget_limit_monthly).toBeNull();
  });

  it('should move an agent to another department, named in any case', async () => {
    const res = await scene.patch(scene.agents.mid.name as string, { department: 'Product' }).expect(200);
    expect(res.body.data.department).toBe('product');
    const list = (await scene.t.http.get('/api/v1/agents').set(bearer(scene.tokens.ceo)).expect(200)).body
      .data as Json[];
    expect(list.find((a) => a.id === scene.agents.mid.id)?.department).toBe('product');
    await scene.patch(scene.agents.mid.name as string, { department: 'engineering' }).expect(200);
  });

  it('should send an agent on leave and back, announcing both', async () => {
    const from = scene.events.length;
    const away = await scene
      .patch(scene.agents.pm.name as string, { status: 'on_leave', reason: 'holiday' })
      .expect(200);
    expect(away.body.data.status).toBe('on_leave');
    expect((await scene.get(scene.agents.pm.name as string)).agent.status).toBe('on_leave');
    await scene.patch(scene.agents.pm.name as string, { status: 'active' }).expect(200);
    const events = scene.agentEvents(from);
    expect(events.map((e) => e.type)).toEqual([
      'agent.updated',
      'agent.status_changed',
      'agent.updated',
      'agent.status_changed',
    ]);
    expect(events[0].payload).toMatchObject({
      agent: { id: scene.agents.pm.id, status: 'on_leave' },
      changed: ['status'],
      requested_by: 'ceo',
    });
    expect(events[1].payload).toMatchObject({ status: 'on_leave', previous_status: 'active', requested_by: 'ceo' });
    expect(events[3].payload).toMatchObject({ status: 'active', previous_status: 'on_leave' });
  });

  it('should send every edit to WebSocket clients of the agents channel, read-only roles included', async () => {
    const ticket = (await scene.t.http.post('/api/v1/auth/ws-ticket').set(bearer(scene.tokens.observer)).expect(201))
      .body.data.ticket as string;
    const client = await openClient(wsUrl(scene.t.url ?? '', ticket));
    try {
      expect(await client.request({ action: 'subscribe', channels: ['agents'] })).toMatchObject({
        action: 'subscribed',
      });
      await scene.patch(scene.agents.pm.name as string, { tools: { access_level: 'restricted' } }).expect(200);
      expect(await client.next()).toMatchObject({
        channel: 'agents',
        event_type: 'agent.updated',
        payload: { agent: { id: scene.agents.pm.id, tools: { access_level: 'restricted' } }, changed: ['tools'] },
      });
    } finally {
      await client.close();
    }
  });

  it('should rename an agent: the new name finds it, the old one no longer does', async () => {
    const res = await scene.patch(ctoName, { name: '  Grace Hopper  ' }).expect(200);
    expect(res.body.data.name).toBe('Grace Hopper');
    expect((await scene.get('grace hopper')).agent.id).toBe(scene.agents.cto.id);
    await scene.t.http
      .get(`/api/v1/agents/${encodeURIComponent(ctoName)}`)
      .set(bearer(scene.tokens.ceo))
      .expect(404);
    scene.agents.cto.name = 'Grace Hopper';
  });

  it('should change nothing, and record nothing, for an empty edit or one that sets the current values', async () => {
    const before = await scene.get(scene.agents.chief.name as string);
    const history = await scene.history(scene.agents.chief.name as string);
    const from = scene.events.length;
    const empty = await scene.patch(scene.agents.chief.name as string, {}).expect(200);
    const same = await scene
      .patch(scene.agents.chief.name as string, { department: 'EXECUTIVE', status: 'active', model: {} })
      .expect(200);
    expect(empty.headers.etag).toBe(before.etag);
    expect(same.headers.etag).toBe(before.etag);
    expect(same.body.data).toEqual(before.agent);
    expect(await scene.history(scene.agents.chief.name as string)).toEqual(history);
    expect(scene.agentEvents(from)).toEqual([]);
  });

  it("should list every edit in the agent's history, oldest first, after hired and onboarded", async () => {
    const history = await scene.history(senior.name as string);
    expect(history.slice(0, 2).map((e) => e.event_type)).toEqual(['hired', 'onboarded']);
    const edits = history.slice(2);
    expect(edits.length).toBe(10);
    expect(edits.every((e) => e.event_type === 'status_changed' && e.initiated_by === 'ceo')).toBe(true);
    const times = history.map((e) => Date.parse(e.timestamp as string));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(new Set(times).size).toBe(times.length);
    expect(edits[0]).toMatchObject({
      description: expect.stringContaining('model: '),
      metadata: { changed: 'model', 'model.to': expect.stringContaining('"model_id":"mock-medium"') },
    });
    expect(edits.map((e) => (e.metadata as Json).changed)).toEqual([
      'model',
      'model',
      'personality_preset,personality',
      'personality_preset,personality',
      'personality',
      'tools,memory',
      'authority',
      'tools,memory,authority',
      'budget_limit_monthly',
      'budget_limit_monthly',
    ]);
    const pm = await scene.history(scene.agents.pm.name as string);
    expect(pm.slice(2, 4).map((e) => e.metadata)).toEqual([
      { changed: 'status', 'status.from': 'active', 'status.to': 'on_leave', reason: 'holiday' },
      { changed: 'status', 'status.from': 'on_leave', 'status.to': 'active' },
    ]);
    expect(pm[2].description).toBe('status: active → on_leave (holiday)');
    // The activity feed shows them too.
    const activity = (
      await scene.t.http
        .get(`/api/v1/agents/${encodeURIComponent(scene.agents.pm.name as string)}/activity`)
        .set(bearer(scene.tokens.ceo))
        .expect(200)
    ).body.data as Json[];
    expect(activity.filter((e) => e.event_type === 'status_changed')).toHaveLength(3);
  });

  it('should write an audit row per edit, naming who changed what', async () => {
    const rows = (
      await scene.t.http.get('/api/v1/audit?action=agent.updated&limit=100').set(bearer(scene.tokens.ceo)).expect(200)
    ).body.data as Json[];
    const cto = rows.filter((r) => r.target === `agent:${scene.agents.cto.id}`);
    expect(cto).toHaveLength(1);
    expect(cto[0]).toMatchObject({
      actor: 'ceo',
      outcome: 'success',
      details: {
        agent: 'Grace Hopper',
        previous_name: ctoName,
        changes: [{ field: 'name', from: ctoName, to: 'Grace Hopper' }],
      },
    });
    expect(rows.filter((r) => r.target === `agent:${senior.id}`)).toHaveLength(10);
    const verified = await scene.t.http.get('/api/v1/audit/verify').set(bearer(scene.tokens.ceo)).expect(200);
    expect(verified.body.data.ok).toBe(true);
  });

  describe('If-Match', () => {
    it('should apply an edit whose If-Match is the current ETag (or *, or a weak or listed one)', async () => {
      const { etag } = await scene.get(senior.name as string);
      const first = await scene.patch(senior.name as string, { memory: { type: 'project' } }, 'ceo', etag).expect(200);
      const next = first.headers.etag;
      expect(next).not.toBe(etag);
      await scene.patch(senior.name as string, { memory: { type: 'session' } }, 'ceo', `W/${next}`).expect(200);
      await scene.patch(senior.name as string, { memory: { type: 'none' } }, 'ceo', '*').expect(200);
      const { etag: now } = await scene.get(senior.name as string);
      await scene.patch(senior.name as string, { memory: { type: 'project' } }, 'ceo', `"stale", ${now}`).expect(200);
    });

    it('should refuse a stale If-Match with 409 (4002), as settings do, and change nothing', async () => {
      const { agent, etag } = await scene.get(senior.name as string);
      await scene.patch(senior.name as string, { memory: { type: 'session' } }).expect(200);
      const stale = await scene
        .patch(senior.name as string, { memory: { type: 'persistent' } }, 'ceo', etag)
        .expect(409);
      expectError(stale.body, 4002, 'conflict');
      expect((await scene.get(senior.name as string)).agent.memory).toEqual({ ...agent.memory, type: 'session' });
      // Settings answer a stale If-Match the same way.
      const setting = await scene.t.http
        .put('/api/v1/settings/budget/currency')
        .set(bearer(scene.tokens.ceo))
        .set('If-Match', '"stale"')
        .send({ value: 'GBP' })
        .expect(409);
      expectError(setting.body, 4002, 'conflict');
    });

    it('should let exactly one of two edits made from the same read through', async () => {
      const { etag } = await scene.get(senior.name as string);
      const answers = await Promise.all([
        scene.patch(senior.name as string, { model: { temperature: 0.3 } }, 'ceo', etag),
        scene.patch(senior.name as string, { model: { temperature: 0.4 } }, 'ceo', etag),
      ]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      const winner = answers.find((a) => a.status === 200)!;
      expect((await scene.get(senior.name as string)).agent.model.temperature).toBe(winner.body.data.model.temperature);
    });

    it('should apply both of two concurrent edits without If-Match', async () => {
      await Promise.all([
        scene.patch(scene.agents.mid.name as string, { tools: { allowed: ['send_message'] } }).expect(200),
        scene.patch(scene.agents.mid.name as string, { memory: { type: 'project' } }).expect(200),
      ]);
      const { agent } = await scene.get(scene.agents.mid.name as string);
      expect(agent.tools.allowed).toEqual(['send_message']);
      expect(agent.memory.type).toBe('project');
    });
  });
});
