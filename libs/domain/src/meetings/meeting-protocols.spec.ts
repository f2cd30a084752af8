import {
  type MeetingCallRequest,
  type MeetingContribution,
  type MeetingPlan,
  type MeetingPorts,
  MeetingTokenBudget,
  MeetingBudgetExhaustedError,
  parseCompanyMeetingTypes,
  roundRobinOrder,
  runMeeting,
  synthesizerOf,
} from '@app/domain';

const ADA = { id: 'a1', name: 'Ada' };
const BOB = { id: 'a2', name: 'Bob' };
const CY = { id: 'a3', name: 'Cy' };

function plan(protocolConfig: Record<string, unknown>, tokenBudget = 2000, participants = [ADA, BOB, CY]): MeetingPlan {
  const [type] = parseCompanyMeetingTypes([
    { name: 'sync', trigger: 'go', participants: ['all'], protocol_config: protocolConfig },
  ]);
  return {
    meetingId: 'mtg-1',
    agenda: { title: 'sync', context: '', items: [{ title: 'plan', description: '', presenterId: null }] },
    participants,
    config: type.protocolConfig,
    tokenBudget,
  };
}

/** Ports whose replies come from `answer`; records the calls and the posted contributions. */
function ports(answer: (request: MeetingCallRequest) => string | Error, tokens = { input: 10, output: 5 }) {
  const calls: MeetingCallRequest[] = [];
  const posted: MeetingContribution[] = [];
  let clock = Date.parse('2026-01-01T00:00:00Z');
  const value: MeetingPorts = {
    speak: (request) => {
      calls.push(request);
      const reply = answer(request);
      return reply instanceof Error
        ? Promise.reject(reply)
        : Promise.resolve({ content: reply, inputTokens: tokens.input, outputTokens: tokens.output });
    },
    contributed: (c) => {
      posted.push(c);
      return Promise.resolve();
    },
    now: () => new Date((clock += 1000)),
  };
  return { value, calls, posted };
}

const SYNTHESIS = 'SUMMARY: We ship.\nDECISION: Ship on Friday\nACTION: Bob | high | Write the release notes';

describe('meeting protocols', () => {
  it('should take turns in order and let the leader summarize when round robin runs', async () => {
    const p = ports((r) => (r.phase === 'summary' ? SYNTHESIS : `turn ${r.turnNumber}`));

    const outcome = await runMeeting(plan({ round_robin: { max_turns_per_agent: 2, max_total_turns: 5 } }), p.value);

    expect(outcome.status).toBe('completed');
    expect(p.calls.map((c) => [c.agentId, c.phase])).toEqual([
      ['a1', 'round_robin_turn'],
      ['a2', 'round_robin_turn'],
      ['a3', 'round_robin_turn'],
      ['a1', 'round_robin_turn'],
      ['a2', 'round_robin_turn'],
      ['a1', 'summary'],
    ]);
    expect(outcome.minutes).toMatchObject({
      leaderId: 'a1',
      participantIds: ['a1', 'a2', 'a3'],
      summary: 'We ship.',
      decisions: ['Ship on Friday'],
      actionItems: [{ description: 'Write the release notes', assigneeId: 'a2', priority: 'high' }],
      totalInputTokens: 60,
      totalOutputTokens: 30,
      conflictsDetected: false,
    });
    expect(p.posted).toHaveLength(6);
    expect(outcome.errorMessage).toBeNull();
  });

  it('should gather papers in parallel and synthesize them when position papers run', async () => {
    const p = ports((r) => (r.phase === 'synthesis' ? SYNTHESIS : r.agentId === 'a2' ? 'I disagree with A' : 'A'));

    const outcome = await runMeeting(
      plan({ protocol: 'position_papers', position_papers: { max_tokens_per_position: 50, synthesizer: 'Cy' } }),
      p.value,
    );

    expect(outcome.status).toBe('completed');
    const papers = p.calls.filter((c) => c.phase === 'position_paper');
    expect(papers.map((c) => c.agentId).sort()).toEqual(['a1', 'a2', 'a3']);
    expect(papers.every((c) => c.maxOutputTokens === 50)).toBe(true);
    expect(p.calls[p.calls.length - 1]).toMatchObject({ agentId: 'a3', phase: 'synthesis' });
    expect(outcome.minutes?.conflictsDetected).toBe(true);
  });

  it('should discuss only when inputs conflict when structured phases run', async () => {
    const agree = ports((r) => (r.phase === 'synthesis' ? SYNTHESIS : 'Agreed, ship it'));
    const calm = await runMeeting(plan({ protocol: 'structured_phases' }), agree.value);
    expect(calm.minutes?.contributions.map((c) => c.phase)).toEqual([
      'agenda_broadcast',
      'input_gathering',
      'input_gathering',
      'input_gathering',
      'synthesis',
    ]);
    expect(calm.minutes?.contributions[0]).toMatchObject({ agentId: 'a1', inputTokens: 0, outputTokens: 0 });

    const split = ports((r) =>
      r.phase === 'synthesis' ? SYNTHESIS : r.agentId === 'a3' ? 'I object to shipping' : 'Ship',
    );
    const contested = await runMeeting(plan({ protocol: 'structured_phases' }), split.value);
    expect(contested.minutes?.conflictsDetected).toBe(true);
    expect(contested.minutes?.contributions.filter((c) => c.phase === 'discussion')).toHaveLength(3);
  });

  it('should end budget_exhausted without minutes when the token budget runs out mid-meeting', async () => {
    const p = ports(() => 'long answer', { input: 80, output: 40 });

    const outcome = await runMeeting(plan({ protocol: 'structured_phases' }, 100), p.value);

    expect(outcome).toMatchObject({ status: 'budget_exhausted', minutes: null });
    expect(outcome.errorMessage).toContain('token budget of 100 exhausted during synthesis');
  });

  it('should end budget_exhausted when the summary of round robin finds the budget spent', async () => {
    const p = ports(() => 'turn', { input: 150, output: 50 });

    const outcome = await runMeeting(plan({}, 150), p.value);

    expect(outcome.status).toBe('budget_exhausted');
    expect(p.calls.map((c) => c.phase)).toEqual(['round_robin_turn']);
  });

  it('should fail with the error when a call fails for another reason', async () => {
    const p = ports((r) => (r.agentId === 'a2' ? new Error('provider down') : 'fine'));

    const outcome = await runMeeting(plan({ protocol: 'position_papers' }), p.value);

    expect(outcome).toEqual({ status: 'failed', minutes: null, errorMessage: 'provider down' });
  });

  it('should fail when fewer than two participants take part', async () => {
    const outcome = await runMeeting(plan({}, 2000, [ADA]), ports(() => 'x').value);

    expect(outcome.status).toBe('failed');
    expect(outcome.errorMessage).toContain('at least 2');
  });
});

describe(MeetingTokenBudget.name, () => {
  it('should cap allowances by what is left and refuse once spent', () => {
    const budget = new MeetingTokenBudget(100);
    expect(budget.allowance('discussion', 300)).toBe(100);
    budget.consume(70);
    expect(budget.allowance('discussion', 50)).toBe(30);
    budget.consume(40);
    expect(budget.remaining).toBe(0);
    expect(() => budget.allowance('synthesis')).toThrow(MeetingBudgetExhaustedError);
  });

  it('should refuse a budget that is not a positive integer', () => {
    expect(() => new MeetingTokenBudget(0)).toThrow(RangeError);
  });
});

describe('turn order', () => {
  it('should cycle participants within both caps', () => {
    expect(roundRobinOrder(['a', 'b', 'c'], 2, 16)).toEqual(['a', 'b', 'c', 'a', 'b', 'c']);
    expect(roundRobinOrder(['a', 'b', 'c'], 2, 4)).toEqual(['a', 'b', 'c', 'a']);
  });

  it('should pick the leader or the named participant as synthesizer', () => {
    expect(synthesizerOf([ADA, BOB], 'meeting_leader')).toBe(ADA);
    expect(synthesizerOf([ADA, BOB], 'bob')).toBe(BOB);
    expect(synthesizerOf([ADA, BOB], 'nobody')).toBe(ADA);
  });
});
