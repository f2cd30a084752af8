import {
  assertTriggerRequest,
  buildAgenda,
  contributionRank,
  ConflictError,
  detectConflicts,
  ErrorCode,
  type MeetingMinutes,
  meetingDue,
  meetingDurationSeconds,
  meetingInvariantHolds,
  mergeMeetingTypes,
  parseCompanyMeetingTypes,
  parseDepartmentMeetingTypes,
  parseSynthesis,
  resolveParticipants,
  tokenUsageByParticipant,
  ValidationError,
} from '@app/domain';

describe('meeting types', () => {
  it('should default every option when a type names only the essentials', () => {
    const [type] = parseCompanyMeetingTypes([{ name: 'standup', frequency: 'daily', participants: ['engineering'] }]);

    expect(type).toMatchObject({
      name: 'standup',
      frequency: 'daily',
      trigger: null,
      durationTokens: 2000,
      channel: '#all-hands',
      source: 'company',
      protocolConfig: {
        protocol: 'round_robin',
        autoCreateTasks: true,
        roundRobin: { maxTurnsPerAgent: 2, maxTotalTurns: 16, leaderSummarizes: true },
        positionPapers: { maxTokensPerPosition: 300, synthesizer: 'meeting_leader' },
        structuredPhases: { skipDiscussionIfNoConflicts: true, maxDiscussionTokens: 1000 },
      },
    });
  });

  it.each([
    [{ name: 'x', participants: ['all'] }, 'exactly one of frequency and trigger'],
    [{ name: 'x', trigger: 't', frequency: 'daily', participants: ['all'] }, 'exactly one of frequency and trigger'],
    [{ name: 'x', trigger: 't', participants: ['all'], duration_tokens: 0 }, 'duration_tokens'],
    [{ name: 'x', frequency: 'hourly', participants: ['all'] }, 'frequency must be one of'],
    [{ name: 'x', trigger: 't', participants: [] }, 'participants must not be empty'],
    [{ name: 'x', trigger: 't', participants: ['all'], protocol_config: { protocol: 'vote' } }, 'protocol'],
  ])('should refuse %j with 409 (4024)', (entry, message) => {
    const parse = () => parseCompanyMeetingTypes([entry]);
    expect(parse).toThrow(ConflictError);
    expect(parse).toThrow(message);
    expect(() => parseCompanyMeetingTypes([entry])).toThrow(
      expect.objectContaining({ code: ErrorCode.MeetingTypesInvalid }),
    );
  });

  it('should read department types from the ceremony policy with the department as participants', () => {
    const types = parseDepartmentMeetingTypes('Engineering', {
      strategy: 'task_driven',
      strategy_config: { meetings: [{ name: 'eng sync', trigger: 'deploy' }] },
    });

    expect(types).toMatchObject([
      { name: 'eng sync', participants: ['Engineering'], source: 'department:Engineering' },
    ]);
    expect(parseDepartmentMeetingTypes('Product', null)).toEqual([]);
  });

  it('should refuse a name used twice across sources', () => {
    const a = parseCompanyMeetingTypes([{ name: 'Sync', trigger: 't', participants: ['all'] }]);
    const b = parseDepartmentMeetingTypes('Eng', { strategy_config: { meetings: [{ name: 'sync', trigger: 'u' }] } });
    expect(() => mergeMeetingTypes([a, b])).toThrow('used twice');
  });
});

describe('trigger requests', () => {
  it('should accept string and list values within the limits', () => {
    expect(assertTriggerRequest(' go ', { a: 'x', b: ['y', 'z'] })).toEqual({
      eventName: 'go',
      context: { a: 'x', b: ['y', 'z'] },
    });
  });

  it.each([
    ['', {}],
    ['go', Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v']))],
    ['go', { ['k'.repeat(257)]: 'v' }],
    ['go', { k: 'v'.repeat(1025) }],
    ['go', { k: Array.from({ length: 51 }, () => 'v') }],
    ['go', { k: 3 }],
  ])('should refuse event %j with context beyond the limits (2090)', (eventName, context) => {
    expect(() => assertTriggerRequest(eventName, context)).toThrow(ValidationError);
  });
});

describe('participants', () => {
  const roster = [
    { id: 'a1', name: 'Ada', department: 'engineering', status: 'active' },
    { id: 'a2', name: 'Bob', department: 'engineering', status: 'active' },
    { id: 'a3', name: 'Cy', department: 'product', status: 'active' },
    { id: 'a4', name: 'Dee', department: 'product', status: 'terminated' },
  ];

  it('should resolve context keys, names, departments, ids and all, once each, in order', () => {
    expect(resolveParticipants(['owner', 'Engineering'], { owner: 'cy' }, roster)).toEqual(['a3', 'a1', 'a2']);
    expect(resolveParticipants(['a2', 'all'], {}, roster)).toEqual(['a2', 'a1', 'a3']);
    expect(resolveParticipants(['product'], {}, roster)).toEqual(['a3']);
    expect(resolveParticipants(['nobody'], {}, roster)).toEqual([]);
  });
});

describe('minutes', () => {
  const participants = [
    { id: 'a1', name: 'Ada' },
    { id: 'a2', name: 'Bob' },
  ];

  it('should read summary, decisions and action items from a synthesis', () => {
    const parsed = parseSynthesis(
      'Intro line\n- SUMMARY: Good progress.\nDecision: Keep scope\n* ACTION: @ada | critical | Fix login\nACTION: Bob | soon | Docs\nACTION: Tidy up',
      participants,
    );

    expect(parsed).toEqual({
      summary: 'Good progress.',
      decisions: ['Keep scope'],
      actionItems: [
        { description: 'Fix login', assigneeId: 'a1', priority: 'critical' },
        { description: 'Docs', assigneeId: 'a2', priority: 'medium' },
        { description: 'Tidy up', assigneeId: null, priority: 'medium' },
      ],
    });
  });

  it('should detect disagreement words only', () => {
    expect(detectConflicts([{ content: 'Sounds good' }, { content: 'I disagree strongly' }])).toBe(true);
    expect(detectConflicts([{ content: 'Sounds good' }, { content: 'Ship it' }])).toBe(false);
  });

  it('should rank participants by tokens and measure the duration', () => {
    const minutes = {
      participantIds: ['a1', 'a2', 'a3'],
      contributions: [
        { agentId: 'a1', inputTokens: 5, outputTokens: 5 },
        { agentId: 'a2', inputTokens: 20, outputTokens: 5 },
      ],
      startedAt: new Date('2026-01-01T00:00:00Z'),
      endedAt: new Date('2026-01-01T00:00:12.500Z'),
    } as unknown as MeetingMinutes;

    expect(tokenUsageByParticipant(minutes)).toEqual({ a1: 10, a2: 25, a3: 0 });
    expect(contributionRank(minutes)).toEqual(['a2', 'a1', 'a3']);
    expect(meetingDurationSeconds(minutes)).toBe(12.5);
    expect(meetingDurationSeconds(null)).toBeNull();
  });

  it('should hold the status invariants', () => {
    expect(meetingInvariantHolds('completed', true, null)).toBe(true);
    expect(meetingInvariantHolds('completed', false, null)).toBe(false);
    expect(meetingInvariantHolds('budget_exhausted', false, 'spent')).toBe(true);
    expect(meetingInvariantHolds('failed', true, 'x')).toBe(false);
  });

  it('should build the agenda from the trigger and the context', () => {
    expect(buildAgenda('retro', 'sprint_end', { sprint: '7', agenda: ['wins', 'misses'] })).toEqual({
      title: 'retro',
      context: 'event: sprint_end\nsprint: 7',
      items: [
        { title: 'wins', description: '', presenterId: null },
        { title: 'misses', description: '', presenterId: null },
      ],
    });
  });

  it('should call a daily meeting due after a day', () => {
    const now = new Date('2026-01-02T00:00:00Z');
    expect(meetingDue('daily', null, now)).toBe(true);
    expect(meetingDue('daily', new Date('2026-01-01T00:00:00Z'), now)).toBe(true);
    expect(meetingDue('weekly', new Date('2026-01-01T00:00:00Z'), now)).toBe(false);
  });
});
