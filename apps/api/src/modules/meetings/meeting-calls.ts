import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import {
  type ChatMessage,
  costOfCall,
  type CostEntry,
  estimateCallCost,
  type MeetingCallReply,
  type MeetingCallRequest,
  type MeetingContribution,
  type MeetingPorts,
  MESSAGE_LIMITS,
  type PreflightTask,
  type SeniorityLevel,
} from '@app/domain';
import type { AgentEntity } from '@app/persistence';
import { APP_CONFIG, type AppConfig, LOGGING_RUNTIME, type LoggingRuntime } from '@app/platform';

import { RunSpend } from '../engine';
import { MessagePosting } from '../messages';
import { ModelRouter, ProviderRegistry } from '../providers';

/** The meeting a set of calls belongs to. */
export interface MeetingCallScope {
  meetingId: string;
  meetingTypeName: string;
  channel: string;
  /** The participants by id. */
  agents: ReadonlyMap<string, AgentEntity>;
  signal?: AbortSignal;
}

/**
 * Participants' model calls, as the engine makes them: the agent's routed model on its registered
 * provider, the estimated cost reserved through the spend control first, and a cost record of call
 * category `coordination` after. Each contribution is posted to the meeting's channel as a
 * `meeting_contribution` message.
 */
@Injectable()
export class MeetingCalls {
  private readonly log: Logger;

  constructor(
    private readonly router: ModelRouter,
    private readonly registry: ProviderRegistry,
    private readonly spend: RunSpend,
    private readonly messages: MessagePosting,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('meetings');
  }

  /** The ports a meeting's protocol runs on. */
  portsFor(scope: MeetingCallScope): MeetingPorts {
    return {
      speak: (request) => this.speak(scope, request),
      contributed: (contribution) => this.post(scope, contribution),
      now: () => new Date(),
    };
  }

  private async speak(scope: MeetingCallScope, request: MeetingCallRequest): Promise<MeetingCallReply> {
    const agent = scope.agents.get(request.agentId);
    if (!agent) {
      throw new Error(`participant ${request.agentId} is not on the roster`);
    }
    const decision = this.router.route({
      agentLevel: agent.level as SeniorityLevel,
      taskType: 'meeting',
      modelOverride: agent.modelId,
    });
    const registered = this.registry.get(decision.model.provider);
    if (!registered) {
      throw new Error(`provider ${decision.model.provider} is not registered`);
    }
    const model = decision.model.id;
    const pricing =
      registered.record.models.find((m) => m.id === model) ?? registered.record.models.find((m) => m.alias === model);
    const messages: ChatMessage[] = [
      {
        role: 'system',
        content: `You are ${agent.name}, ${agent.role} in the ${agent.department} department, taking part in a meeting.`,
      },
      { role: 'user', content: request.prompt },
    ];
    const verdict = await this.spend.reserve({
      task: meetingAsTask(scope, agent),
      agent,
      provider: registered.record.name,
      model,
      estimatedCost: estimateCallCost(pricing, messages, [], request.maxOutputTokens),
    });
    if (!verdict.ok) {
      throw new Error(`the call of ${agent.name} was refused by the budget: ${verdict.reason}`);
    }
    let result;
    try {
      result = await registered.driver.chat({
        model,
        messages,
        maxOutputTokens: request.maxOutputTokens,
        signal: scope.signal,
        timeoutMs: this.config.engine.callTimeoutSeconds * 1000,
      });
    } catch (error) {
      if (verdict.reservationId !== null) {
        await this.spend.release(verdict.reservationId);
      }
      throw error;
    }
    const { inputTokens, outputTokens } = result.usage;
    const entry: CostEntry = {
      id: randomUUID(),
      agentId: agent.id,
      taskId: null,
      provider: registered.record.name,
      model: pricing?.id ?? model,
      inputTokens,
      outputTokens,
      costUsd: costOfCall(pricing, inputTokens, outputTokens),
      callCategory: 'coordination',
      timestamp: new Date(),
    };
    await this.spend.record(entry, verdict.reservationId);
    this.log.info(
      {
        meeting_id: scope.meetingId,
        agent_id: agent.id,
        phase: request.phase,
        input_tokens: inputTokens,
        output_tokens: outputTokens,
      },
      'meetings.call.completed',
    );
    return { content: result.content, inputTokens, outputTokens };
  }

  // Messages tell the channel what was said; the minutes hold it whatever happens to a post.
  private async post(scope: MeetingCallScope, contribution: MeetingContribution): Promise<void> {
    const agent = scope.agents.get(contribution.agentId);
    const content = contribution.content.trim().slice(0, MESSAGE_LIMITS.maxContentChars);
    if (!agent || content === '') {
      return;
    }
    try {
      await this.messages.post({
        from: agent.name,
        type: 'meeting_contribution',
        channel: scope.channel,
        content,
        metadata: {
          tokensUsed: contribution.inputTokens + contribution.outputTokens,
          extra: [
            ['meeting_id', scope.meetingId],
            ['meeting_type', scope.meetingTypeName],
            ['phase', contribution.phase],
            ['turn_number', String(contribution.turnNumber)],
          ],
        },
      });
    } catch (error) {
      this.log.warn(
        { err: error, meeting_id: scope.meetingId, channel: scope.channel },
        'meetings.contribution.post_failed',
      );
    }
  }
}

/**
 * The meeting as the spend control sees a unit of work: reservations carry its id, and no task cap
 * applies (budget limit 0); the company and daily limits do.
 */
function meetingAsTask(scope: MeetingCallScope, agent: AgentEntity): PreflightTask {
  return {
    id: scope.meetingId,
    title: `meeting ${scope.meetingTypeName}`,
    type: 'meeting',
    priority: 'medium',
    project: '',
    assigneeId: agent.id,
    budgetLimit: 0,
    estimatedComplexity: 'simple',
    retryCount: 0,
    maxRetries: 0,
    parentTaskId: null,
  };
}
