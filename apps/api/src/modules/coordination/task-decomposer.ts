import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';

import {
  type ChatMessage,
  type ChatResult,
  costOfCall,
  DecompositionError,
  estimateCallCost,
  parseDecomposition,
  type SeniorityLevel,
  type SubtaskDefinition,
  type ToolDefinition,
} from '@app/domain';
import type { AgentEntity, TaskEntity } from '@app/persistence';
import { APP_CONFIG, type AppConfig } from '@app/platform';

import { RunSpend } from '../engine';
import { ModelRouter, ProviderRegistry } from '../providers';

/** What the decomposition call produced and what it cost. */
export interface Decomposition {
  subtasks: SubtaskDefinition[];
  provider: string;
  model: string;
  tokens: number;
  cost: number;
}

/** The structured answer the model gives: a tool call carrying the subtasks. */
const SUBMIT_TOOL: ToolDefinition = {
  name: 'submit_decomposition',
  description: 'Submit the subtasks the task is split into.',
  parameters: {
    type: 'object',
    required: ['subtasks'],
    properties: {
      subtasks: {
        type: 'array',
        minItems: 1,
        items: {
          type: 'object',
          required: ['id', 'title', 'description'],
          properties: {
            id: { type: 'string', description: 'Short id, unique in this decomposition' },
            title: { type: 'string', maxLength: 256 },
            description: { type: 'string', maxLength: 4096 },
            dependencies: { type: 'array', items: { type: 'string' }, description: 'Ids of subtasks to finish first' },
            estimated_complexity: { type: 'string', enum: ['simple', 'medium', 'complex', 'epic'] },
            required_skills: { type: 'array', items: { type: 'string' } },
            required_role: { type: 'string' },
            assigned_to: { type: 'string', description: 'An agent name, for manual assignment only' },
          },
        },
      },
    },
  },
};

/** Output tokens the decomposition call may use. */
const MAX_OUTPUT_TOKENS = 4096;

/**
 * The decompose phase's model call: the coordinating agent's routed model is asked for the task's
 * subtasks as structured output (a `submit_decomposition` tool call, or the same JSON as text). The
 * call is reserved and recorded through the spend control like any run's, in the `coordination`
 * call category.
 */
@Injectable()
export class TaskDecomposer {
  constructor(
    private readonly router: ModelRouter,
    private readonly registry: ProviderRegistry,
    private readonly spend: RunSpend,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async decompose(
    parent: TaskEntity,
    coordinator: AgentEntity,
    candidates: readonly AgentEntity[],
    maxSubtasks: number,
  ): Promise<Decomposition> {
    const decision = this.router.route({
      agentLevel: coordinator.level as SeniorityLevel,
      taskType: parent.type,
      modelOverride: coordinator.modelId,
    });
    const registered = this.registry.get(decision.model.provider);
    if (!registered) {
      throw new DecompositionError(`provider ${decision.model.provider} is not registered`);
    }
    const provider = registered.record.name;
    const pricing = registered.record.models.find((m) => m.id === decision.model.id);
    const model = decision.model.id;
    const messages = prompt(parent, candidates, maxSubtasks);
    const verdict = await this.spend.reserve({
      task: parent,
      agent: coordinator,
      provider,
      model,
      estimatedCost: estimateCallCost(pricing, messages, [SUBMIT_TOOL], MAX_OUTPUT_TOKENS),
    });
    if (!verdict.ok) {
      throw new DecompositionError(`the decomposition call was refused: ${verdict.reason}`);
    }
    let result: ChatResult;
    try {
      result = await registered.driver.chat({
        model,
        messages,
        tools: [SUBMIT_TOOL],
        maxOutputTokens: MAX_OUTPUT_TOKENS,
        temperature: 0,
        timeoutMs: this.config.engine.callTimeoutSeconds * 1000,
      });
    } catch (error) {
      if (verdict.reservationId !== null) {
        await this.spend.release(verdict.reservationId);
      }
      throw new DecompositionError(`the decomposition call failed: ${(error as Error).message}`);
    }
    const { inputTokens, outputTokens } = result.usage;
    const cost = costOfCall(pricing, inputTokens, outputTokens);
    await this.spend.record(
      {
        id: randomUUID(),
        agentId: coordinator.id,
        taskId: parent.id,
        provider,
        model,
        inputTokens,
        outputTokens,
        costUsd: cost,
        callCategory: 'coordination',
        timestamp: new Date(),
      },
      verdict.reservationId,
    );
    return {
      subtasks: parseDecomposition(structuredAnswer(result), maxSubtasks),
      provider,
      model,
      tokens: inputTokens + outputTokens,
      cost,
    };
  }
}

function prompt(parent: TaskEntity, candidates: readonly AgentEntity[], maxSubtasks: number): ChatMessage[] {
  const team = candidates.map((a) => `- ${a.name}: ${a.role} (${a.level}, ${a.department})`).join('\n');
  return [
    {
      role: 'system',
      content:
        'You split a task into subtasks for a team of agents. Answer only by calling submit_decomposition ' +
        `(or with the same JSON object as text): at most ${maxSubtasks} subtasks, each with a short unique id, ` +
        'a title, a description and the ids of the subtasks it depends on. Dependencies must not form a cycle.',
    },
    {
      role: 'user',
      content: `Task: ${parent.title}\n\n${parent.description}\n\nComplexity: ${parent.estimatedComplexity}\n\nTeam:\n${team}`,
    },
  ];
}

/** The decomposition object: the submit tool call's arguments, else JSON in the text (fences allowed). */
function structuredAnswer(result: ChatResult): unknown {
  const call = result.toolCalls.find((c) => c.name === SUBMIT_TOOL.name) ?? result.toolCalls[0];
  if (call) {
    return call.arguments;
  }
  const text = result.content.trim();
  const start = text.search(/[[{]/);
  const end = Math.max(text.lastIndexOf('}'), text.lastIndexOf(']'));
  if (start < 0 || end < start) {
    throw new DecompositionError('the model answered without a decomposition');
  }
  try {
    return JSON.parse(text.slice(start, end + 1)) as unknown;
  } catch {
    throw new DecompositionError('the model answered with malformed JSON');
  }
}
