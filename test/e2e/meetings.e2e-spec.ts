import { ErrorCode } from '@app/domain';
import { testBackends } from '@app/testing';

import { openClient, wsUrl } from '../integration/events/ws-test-client';
import {
  addMockProvider,
  bearer,
  createCompany,
  expectError,
  type MockLlm,
  setupCeo,
  startMockLlm,
  startTestApp,
  type TestApp,
  userWithRole,
} from '../support';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

jest.setTimeout(120_000);

const SYNTHESIS = (assignee: string, action: string) =>
  `SUMMARY: We agreed on the release.\nDECISION: Ship on Friday\nACTION: ${assignee} | high | ${action}`;

describe.each(testBackends())('meetings on %s', (backend) => {
  let t: TestApp;
  let mock: MockLlm;
  let ceo: string;
  let lead: string;
  let member: string;

  const say = (text: string, inputTokens = 20, outputTokens = 10) => ({
    kind: 'text' as const,
    text,
    inputTokens,
    outputTokens,
  });

  const trigger = async (event: string, context: Json = {}): Promise<Json[]> =>
    (await t.http.post('/api/v1/meetings/trigger').set(bearer(ceo)).send({ event_name: event, context }).expect(200))
      .body.data as Json[];

  /** The meeting's action item became a task assigned to its assignee; the calls were costed as coordination. */
  const expectOutcomes = async (meeting: Json, action: string): Promise<void> => {
    const names = meeting.participant_names as Record<string, string>;
    const memberId = Object.keys(names).find((id) => names[id] === member) as string;
    expect(meeting.minutes.action_items).toEqual([{ description: action, assignee_id: memberId, priority: 'high' }]);
    const tasks = (
      await t.http
        .get('/api/v1/tasks')
        .query({ status: 'assigned', assigned_to: member, limit: 200 })
        .set(bearer(ceo))
        .expect(200)
    ).body.data as Json[];
    expect(tasks.filter((task) => task.title === action)).toEqual([
      expect.objectContaining({ assigned_to: member, priority: 'high', created_by: 'meetings' }),
    ]);
    for (const id of Object.keys(names)) {
      const records = (
        await t.http.get('/api/v1/budget/records').query({ agent_id: id, limit: 200 }).set(bearer(ceo)).expect(200)
      ).body.data as Json[];
      const spoken = (meeting.minutes.contributions as Json[]).filter((c) => c.agent_id === id && c.input_tokens > 0);
      const costed = records.filter((r) => r.call_category === 'coordination');
      expect(costed.length).toBeGreaterThanOrEqual(spoken.length);
      expect(costed.every((r) => r.task_id === null && r.cost_usd > 0)).toBe(true);
    }
    expect(meeting.token_usage_by_participant[memberId]).toBeGreaterThan(0);
    expect(meeting.contribution_rank).toHaveLength(2);
    expect(meeting.meeting_duration_seconds).toBeGreaterThanOrEqual(0);
    expect(meeting.error_message).toBeNull();
  };

  beforeAll(async () => {
    mock = await startMockLlm();
    // Action-item tasks stay assigned: no run takes the mock's scripted replies from the meetings.
    t = await startTestApp({ backend, listen: true, env: { SYNTHORG_ENGINE_ENABLED: 'false' } });
    ceo = await setupCeo(t);
    await addMockProvider(t, ceo, mock);
    const agents = (await createCompany(t, ceo)).agents;
    [lead, member] = [agents[0].name, agents[1].name];
    const pair = [lead, member];
    const types = [
      { name: 'rr', trigger: 'rr', participants: pair, protocol_config: { round_robin: { max_turns_per_agent: 1 } } },
      { name: 'pp', trigger: 'pp', participants: pair, protocol_config: { protocol: 'position_papers' } },
      {
        name: 'sp',
        trigger: 'sp',
        participants: ['owner', member],
        protocol_config: { protocol: 'structured_phases' },
      },
      {
        name: 'tight',
        trigger: 'tight',
        participants: pair,
        duration_tokens: 100,
        protocol_config: { protocol: 'position_papers' },
      },
      ...['release notes', 'release review'].map((name) => ({
        name,
        trigger: 'release',
        participants: pair,
        protocol_config: {
          auto_create_tasks: false,
          round_robin: { max_turns_per_agent: 1, leader_summarizes: false },
        },
      })),
      { name: 'solo', trigger: 'solo', participants: [lead] },
    ];
    await t.http
      .put('/api/v1/settings/coordination/meeting_types')
      .set(bearer(ceo))
      .send({ value: JSON.stringify(types) })
      .expect(200);
  });

  afterAll(async () => {
    await t.close();
    await mock.close();
  });

  it('should hold a round-robin meeting with minutes, a task from its action item and costed calls', async () => {
    const ticket = (await t.http.post('/api/v1/auth/ws-ticket').set(bearer(ceo)).expect(201)).body.data.ticket;
    const socket = await openClient(wsUrl(t.url ?? '', ticket as string));
    await socket.request({ action: 'subscribe', channels: ['meetings'] });
    mock.enqueue(say('Turn of the lead'), say('Turn of the member'), say(SYNTHESIS(member, 'Write the release notes')));

    const [meeting] = await trigger('rr');

    expect(meeting).toMatchObject({ meeting_type_name: 'rr', protocol_type: 'round_robin', status: 'completed' });
    expect((meeting.minutes.contributions as Json[]).map((c) => c.phase)).toEqual([
      'round_robin_turn',
      'round_robin_turn',
      'summary',
    ]);
    expect(meeting.minutes).toMatchObject({
      summary: 'We agreed on the release.',
      decisions: ['Ship on Friday'],
      total_input_tokens: 60,
      total_output_tokens: 30,
      agenda: { title: 'rr' },
    });
    await expectOutcomes(meeting, 'Write the release notes');
    try {
      const started = await socket.next((m) => m.event_type === 'meeting.started');
      expect(started.payload).toMatchObject({ meeting_id: meeting.meeting_id, status: 'in_progress' });
      const completed = await socket.next((m) => m.event_type === 'meeting.completed');
      expect(completed.payload).toMatchObject({ meeting_id: meeting.meeting_id, status: 'completed', meeting });
    } finally {
      await socket.close();
    }
    const fetched = await t.http.get(`/api/v1/meetings/${meeting.meeting_id}`).set(bearer(ceo)).expect(200);
    expect(fetched.body.data).toEqual(meeting);
    const messages = (
      await t.http.get('/api/v1/messages').query({ channel: '#all-hands', limit: 200 }).set(bearer(ceo)).expect(200)
    ).body.data as Json[];
    expect(messages.filter((m) => m.type === 'meeting_contribution').map((m) => m.content)).toEqual(
      expect.arrayContaining(['Turn of the lead', 'Turn of the member']),
    );
  });

  it('should hold a position-papers meeting whose synthesizer turns the papers into minutes', async () => {
    mock.enqueue(say('Paper: ship'), say('Paper: ship'), say(SYNTHESIS(member, 'Prepare the demo')));

    const [meeting] = await trigger('pp');

    expect(meeting).toMatchObject({ protocol_type: 'position_papers', status: 'completed' });
    expect((meeting.minutes.contributions as Json[]).map((c) => c.phase)).toEqual([
      'position_paper',
      'position_paper',
      'synthesis',
    ]);
    await expectOutcomes(meeting, 'Prepare the demo');
  });

  it('should hold structured phases with a discussion when the inputs conflict', async () => {
    mock.enqueue(
      say('I disagree with the date'),
      say('I disagree with the scope'),
      say('Then Friday'),
      say('Agreed'),
      say(SYNTHESIS(member, 'Update the plan')),
    );

    const [meeting] = await trigger('sp', { owner: lead, agenda: ['date', 'scope'] });

    expect(meeting).toMatchObject({ protocol_type: 'structured_phases', status: 'completed' });
    expect(meeting.minutes.conflicts_detected).toBe(true);
    expect(meeting.minutes.agenda.items.map((i: Json) => i.title)).toEqual(['date', 'scope']);
    expect((meeting.minutes.contributions as Json[]).map((c) => c.phase)).toEqual([
      'agenda_broadcast',
      'input_gathering',
      'input_gathering',
      'discussion',
      'discussion',
      'synthesis',
    ]);
    expect(meeting.participant_names[meeting.minutes.leader_id]).toBe(lead);
    await expectOutcomes(meeting, 'Update the plan');
  });

  it('should end budget_exhausted without minutes when the token budget runs out mid-meeting', async () => {
    mock.enqueue(say('A long paper', 80, 40), say('Another long paper', 80, 40));

    const [meeting] = await trigger('tight');

    expect(meeting).toMatchObject({ status: 'budget_exhausted', minutes: null, token_budget: 100 });
    expect(meeting.error_message).toContain('token budget of 100 exhausted during synthesis');
    expect(meeting.meeting_duration_seconds).toBeNull();
    const listed = await t.http
      .get('/api/v1/meetings')
      .query({ status: 'budget_exhausted' })
      .set(bearer(ceo))
      .expect(200);
    expect((listed.body.data as Json[]).map((m) => m.meeting_id)).toEqual([meeting.meeting_id]);
  });

  it('should hold every type a trigger matches, and none when nothing matches', async () => {
    const held = await trigger('release');

    expect(held.map((m) => m.meeting_type_name)).toEqual(['release notes', 'release review']);
    expect(held.every((m) => m.status === 'completed')).toBe(true);
    await expect(trigger('nothing matches')).resolves.toEqual([]);
    const page = await t.http
      .get('/api/v1/meetings')
      .query({ meeting_type: 'release review' })
      .set(bearer(ceo))
      .expect(200);
    expect(page.body).toMatchObject({ pagination: { total: 1 }, data: [{ meeting_id: held[1].meeting_id }] });
  });

  it('should fail a meeting with fewer than two resolved participants', async () => {
    const [meeting] = await trigger('solo');

    expect(meeting).toMatchObject({ status: 'failed', minutes: null });
    expect(meeting.error_message).toContain('at least 2 resolved participants');
  });

  it('should hold a department’s meeting type from its ceremony policy, and answer 409 when one is invalid', async () => {
    const policy = (meetings: Json[]) =>
      t.http
        .put('/api/v1/departments/engineering/ceremony-policy')
        .set(bearer(ceo))
        .send({ strategy: 'task_driven', strategy_config: { meetings } });
    await policy([
      {
        name: 'eng sync',
        trigger: 'deploy',
        protocol_config: {
          auto_create_tasks: false,
          round_robin: { max_turns_per_agent: 1, leader_summarizes: false },
        },
      },
    ]).expect(200);
    const engineers = (await t.http.get('/api/v1/agents').query({ limit: 200 }).set(bearer(ceo)).expect(200)).body.data
      .filter((a: Json) => a.department === 'engineering')
      .map((a: Json) => a.name as string);

    const [meeting] = await trigger('deploy');

    expect(meeting).toMatchObject({ meeting_type_name: 'eng sync', status: 'completed' });
    expect(Object.values(meeting.participant_names).sort()).toEqual([...engineers].sort());
    expect(meeting.minutes.contributions).toHaveLength(engineers.length);

    await policy([{ name: 'eng sync', participants: ['all'] }]).expect(200);
    expectError(
      (await t.http.post('/api/v1/meetings/trigger').set(bearer(ceo)).send({ event_name: 'deploy' }).expect(409)).body,
      ErrorCode.MeetingTypesInvalid,
    );
    await t.http.delete('/api/v1/departments/engineering/ceremony-policy').set(bearer(ceo)).expect(204);
  });

  it('should answer 404 for an unknown meeting, 400 for a blank event and 403 to an observer’s trigger', async () => {
    expectError(
      (await t.http.get('/api/v1/meetings/mtg-none').set(bearer(ceo)).expect(404)).body,
      ErrorCode.MeetingNotFound,
    );
    expectError(
      (await t.http.post('/api/v1/meetings/trigger').set(bearer(ceo)).send({ event_name: ' ' }).expect(400)).body,
      ErrorCode.MeetingTriggerInvalid,
    );
    expectError(
      (
        await t.http
          .put('/api/v1/settings/coordination/meeting_types')
          .set(bearer(ceo))
          .send({ value: JSON.stringify([{ name: 'both', trigger: 'x', frequency: 'daily', participants: ['all'] }]) })
          .expect(400)
      ).body,
      ErrorCode.MeetingTypesSettingInvalid,
    );
    const observer = await userWithRole(t, ceo, 'observer');
    await t.http.post('/api/v1/meetings/trigger').set(bearer(observer)).send({ event_name: 'rr' }).expect(403);
    await t.http.get('/api/v1/meetings').set(bearer(observer)).expect(200);
  });
});
