import {
  type ActionItem,
  detectConflicts,
  type MeetingAgenda,
  type MeetingContribution,
  type MeetingMinutes,
  type MeetingOutcome,
  type NamedParticipant,
  parseSynthesis,
  SYNTHESIS_FORMAT,
  tokenTotals,
} from './meeting-minutes';
import type { MeetingPhase, MeetingProtocolConfig } from './meeting-types';

/** The meeting's token budget (`duration_tokens`) ran out before the protocol finished. */
export class MeetingBudgetExhaustedError extends Error {
  constructor(
    readonly phase: MeetingPhase,
    readonly used: number,
    readonly budget: number,
  ) {
    super(`token budget of ${budget} exhausted during ${phase} (${used} tokens used)`);
    this.name = 'MeetingBudgetExhaustedError';
  }
}

/** Tokens a meeting may spend: a call starts only while some are left, and may answer at most what is left. */
export class MeetingTokenBudget {
  private used = 0;

  constructor(readonly total: number) {
    if (!Number.isInteger(total) || total <= 0) {
      throw new RangeError('a meeting token budget must be an integer greater than 0');
    }
  }

  get spent(): number {
    return this.used;
  }

  get remaining(): number {
    return Math.max(0, this.total - this.used);
  }

  /** The output allowance of the next call, capped; throws when nothing is left. */
  allowance(phase: MeetingPhase, cap?: number): number {
    if (this.remaining <= 0) {
      throw new MeetingBudgetExhaustedError(phase, this.used, this.total);
    }
    return Math.max(1, Math.min(cap ?? this.remaining, this.remaining));
  }

  consume(tokens: number): void {
    this.used += Math.max(0, tokens);
  }
}

/** One model call by a participant, as the protocols ask for it. */
export interface MeetingCallRequest {
  agentId: string;
  phase: MeetingPhase;
  turnNumber: number;
  /** The instructions and the meeting so far, as one prompt. */
  prompt: string;
  maxOutputTokens: number;
}

export interface MeetingCallReply {
  content: string;
  inputTokens: number;
  outputTokens: number;
}

/** How protocols reach the outside: participants' model calls and the posting of contributions. */
export interface MeetingPorts {
  speak(request: MeetingCallRequest): Promise<MeetingCallReply>;
  /** A contribution was made (posted as a message); failures are the port's to absorb. */
  contributed(contribution: MeetingContribution): Promise<void>;
  now(): Date;
}

/** What a protocol runs on. */
export interface MeetingPlan {
  meetingId: string;
  agenda: MeetingAgenda;
  /** In order; the first is the leader. At least two. */
  participants: NamedParticipant[];
  config: MeetingProtocolConfig;
  tokenBudget: number;
}

/** Share of the budget round-robin turns leave for the leader's summary. */
const SUMMARY_RESERVE_SHARE = 0.2;

class MeetingSession {
  readonly contributions: MeetingContribution[] = [];
  readonly budget: MeetingTokenBudget;
  private turn = 0;

  constructor(
    readonly plan: MeetingPlan,
    readonly ports: MeetingPorts,
  ) {
    this.budget = new MeetingTokenBudget(plan.tokenBudget);
  }

  get leader(): NamedParticipant {
    return this.plan.participants[0];
  }

  /** A participant's call under the budget; the contribution is recorded and posted. */
  async speak(
    agent: NamedParticipant,
    phase: MeetingPhase,
    prompt: string,
    cap?: number,
  ): Promise<MeetingContribution> {
    const maxOutputTokens = this.budget.allowance(phase, cap);
    const turnNumber = ++this.turn;
    const reply = await this.ports.speak({ agentId: agent.id, phase, turnNumber, prompt, maxOutputTokens });
    this.budget.consume(reply.inputTokens + reply.outputTokens);
    return this.record({
      agentId: agent.id,
      content: reply.content,
      phase,
      turnNumber,
      inputTokens: reply.inputTokens,
      outputTokens: reply.outputTokens,
      timestamp: this.ports.now(),
    });
  }

  async record(contribution: MeetingContribution): Promise<MeetingContribution> {
    this.contributions.push(contribution);
    await this.ports.contributed(contribution);
    return contribution;
  }

  nextTurn(): number {
    return ++this.turn;
  }

  /**
   * Calls in parallel. When some fail the phase fails: with the budget error when every failure was
   * one (the meeting ends budget_exhausted), else with the first other error.
   */
  async parallel(
    phase: MeetingPhase,
    agents: readonly NamedParticipant[],
    prompt: (agent: NamedParticipant) => string,
    cap?: number,
  ): Promise<MeetingContribution[]> {
    const settled = await Promise.allSettled(agents.map((agent) => this.speak(agent, phase, prompt(agent), cap)));
    const errors = settled.flatMap((s) => (s.status === 'rejected' ? [s.reason as unknown] : []));
    if (errors.length > 0) {
      throw errors.find((e) => !(e instanceof MeetingBudgetExhaustedError)) ?? errors[0];
    }
    return settled.map((s) => (s as PromiseFulfilledResult<MeetingContribution>).value);
  }
}

function agendaText(agenda: MeetingAgenda): string {
  const items = agenda.items.map(
    (item, i) => `${i + 1}. ${item.title}${item.description ? `: ${item.description}` : ''}`,
  );
  return [`Meeting: ${agenda.title}`, agenda.context ? `Context: ${agenda.context}` : '', 'Agenda:', ...items]
    .filter((line) => line !== '')
    .join('\n');
}

function transcript(session: MeetingSession, contributions: readonly MeetingContribution[]): string {
  const names = new Map(session.plan.participants.map((p) => [p.id, p.name]));
  return contributions.map((c) => `${names.get(c.agentId) ?? c.agentId} (${c.phase}): ${c.content}`).join('\n\n');
}

function participantList(session: MeetingSession): string {
  return `Participants: ${session.plan.participants.map((p) => p.name).join(', ')}.`;
}

async function roundRobin(session: MeetingSession): Promise<{ synthesis: string; conflicts: boolean }> {
  const { maxTurnsPerAgent, maxTotalTurns, leaderSummarizes } = session.plan.config.roundRobin;
  const order = roundRobinOrder(session.plan.participants, maxTurnsPerAgent, maxTotalTurns);
  const reserve = leaderSummarizes ? Math.ceil(session.budget.total * SUMMARY_RESERVE_SHARE) : 0;
  for (const agent of order) {
    // The turns stop early to leave the leader room to summarize; the summary then needs what is left.
    if (leaderSummarizes && session.budget.remaining <= reserve) {
      break;
    }
    const said = transcript(session, session.contributions);
    await session.speak(
      agent,
      'round_robin_turn',
      `${agendaText(session.plan.agenda)}\n${participantList(session)}\n\n` +
        `${said ? `The discussion so far:\n${said}\n\n` : ''}` +
        `You are ${agent.name}. Give your contribution to the agenda in a few sentences.`,
      leaderSummarizes ? Math.max(1, session.budget.remaining - reserve) : undefined,
    );
  }
  const conflicts = detectConflicts(session.contributions);
  if (!leaderSummarizes) {
    const last = session.contributions[session.contributions.length - 1];
    return { synthesis: last?.content ?? '', conflicts };
  }
  const summary = await session.speak(
    session.leader,
    'summary',
    `${agendaText(session.plan.agenda)}\n${participantList(session)}\n\nThe discussion:\n` +
      `${transcript(session, session.contributions)}\n\nAs the meeting leader, summarize it. ${SYNTHESIS_FORMAT}`,
  );
  return { synthesis: summary.content, conflicts };
}

/** Round-robin turn order: the participants in order, round after round, within both caps. */
export function roundRobinOrder<T>(participants: readonly T[], maxTurnsPerAgent: number, maxTotalTurns: number): T[] {
  const order: T[] = [];
  for (let round = 0; round < maxTurnsPerAgent; round++) {
    for (const p of participants) {
      if (order.length >= maxTotalTurns) {
        return order;
      }
      order.push(p);
    }
  }
  return order;
}

/** The synthesizer of position papers: the leader, or the participant the config names. */
export function synthesizerOf(participants: readonly NamedParticipant[], ref: string): NamedParticipant {
  const key = ref.trim().toLowerCase();
  if (key === 'meeting_leader') {
    return participants[0];
  }
  return participants.find((p) => p.id.toLowerCase() === key || p.name.toLowerCase() === key) ?? participants[0];
}

async function positionPapers(session: MeetingSession): Promise<{ synthesis: string; conflicts: boolean }> {
  const { maxTokensPerPosition, synthesizer } = session.plan.config.positionPapers;
  const papers = await session.parallel(
    'position_paper',
    session.plan.participants,
    (agent) =>
      `${agendaText(session.plan.agenda)}\n${participantList(session)}\n\n` +
      `You are ${agent.name}. Write your position paper on the agenda, on your own and briefly.`,
    maxTokensPerPosition,
  );
  const conflicts = detectConflicts(papers);
  const synthesis = await session.speak(
    synthesizerOf(session.plan.participants, synthesizer),
    'synthesis',
    `${agendaText(session.plan.agenda)}\n${participantList(session)}\n\nThe position papers:\n` +
      `${transcript(session, papers)}\n\n` +
      `${conflicts ? 'The papers disagree: weigh the positions and decide. ' : ''}Synthesize them. ${SYNTHESIS_FORMAT}`,
  );
  return { synthesis: synthesis.content, conflicts };
}

async function structuredPhases(session: MeetingSession): Promise<{ synthesis: string; conflicts: boolean }> {
  const { skipDiscussionIfNoConflicts, maxDiscussionTokens } = session.plan.config.structuredPhases;
  const agenda = agendaText(session.plan.agenda);
  // The agenda is broadcast as the leader's opening: it costs no model call.
  await session.record({
    agentId: session.leader.id,
    content: agenda,
    phase: 'agenda_broadcast',
    turnNumber: session.nextTurn(),
    inputTokens: 0,
    outputTokens: 0,
    timestamp: session.ports.now(),
  });
  const inputs = await session.parallel(
    'input_gathering',
    session.plan.participants,
    (agent) => `${agenda}\n${participantList(session)}\n\nYou are ${agent.name}. Give your input on each agenda item.`,
  );
  const conflicts = detectConflicts(inputs);
  if (conflicts || !skipDiscussionIfNoConflicts) {
    const startedAt = session.budget.spent;
    for (const agent of session.plan.participants) {
      const left = maxDiscussionTokens - (session.budget.spent - startedAt);
      if (left <= 0) {
        break;
      }
      await session.speak(
        agent,
        'discussion',
        `${agenda}\n${participantList(session)}\n\nWhat was said:\n${transcript(session, session.contributions)}\n\n` +
          `You are ${agent.name}. ${conflicts ? 'Positions conflict: ' : ''}discuss the open points and work towards agreement.`,
        left,
      );
    }
  }
  const synthesis = await session.speak(
    session.leader,
    'synthesis',
    `${agenda}\n${participantList(session)}\n\nWhat was said:\n${transcript(session, session.contributions)}\n\n` +
      `As the meeting leader, synthesize the outcome. ${SYNTHESIS_FORMAT}`,
  );
  return { synthesis: synthesis.content, conflicts };
}

/**
 * Runs a meeting's protocol and assembles its outcome: minutes when it completes, budget_exhausted
 * when its token budget ran out, failed on any other error (the minutes then stay unwritten).
 */
export async function runMeeting(plan: MeetingPlan, ports: MeetingPorts): Promise<MeetingOutcome> {
  if (plan.participants.length < 2) {
    return { status: 'failed', minutes: null, errorMessage: 'a meeting needs at least 2 participants' };
  }
  const startedAt = ports.now();
  const session = new MeetingSession(plan, ports);
  let result: { synthesis: string; conflicts: boolean };
  try {
    switch (plan.config.protocol) {
      case 'round_robin':
        result = await roundRobin(session);
        break;
      case 'position_papers':
        result = await positionPapers(session);
        break;
      case 'structured_phases':
        result = await structuredPhases(session);
        break;
    }
  } catch (error) {
    if (error instanceof MeetingBudgetExhaustedError) {
      return { status: 'budget_exhausted', minutes: null, errorMessage: error.message };
    }
    return { status: 'failed', minutes: null, errorMessage: (error as Error).message || String(error) };
  }
  return {
    status: 'completed',
    minutes: assembleMinutes(plan, session.contributions, result, startedAt, ports.now()),
    errorMessage: null,
  };
}

/** The minutes of a completed meeting from its contributions and the synthesis. */
export function assembleMinutes(
  plan: MeetingPlan,
  contributions: readonly MeetingContribution[],
  result: { synthesis: string; conflicts: boolean },
  startedAt: Date,
  endedAt: Date,
): MeetingMinutes {
  const parsed = parseSynthesis(result.synthesis, plan.participants);
  const totals = tokenTotals(contributions);
  const actionItems: ActionItem[] = parsed.actionItems;
  return {
    meetingId: plan.meetingId,
    protocolType: plan.config.protocol,
    leaderId: plan.participants[0].id,
    participantIds: plan.participants.map((p) => p.id),
    agenda: plan.agenda,
    contributions: [...contributions],
    summary: parsed.summary,
    decisions: parsed.decisions,
    actionItems,
    conflictsDetected: result.conflicts,
    totalInputTokens: totals.input,
    totalOutputTokens: totals.output,
    startedAt,
    endedAt,
  };
}
