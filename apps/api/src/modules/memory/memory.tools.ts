import { z } from 'zod';

import {
  AppError,
  type AgentTool,
  MEMORY_CATEGORIES,
  ORG_FACT_CATEGORIES,
  type ToolContext,
  ToolError,
} from '@app/domain';
import type { AgentEntity } from '@app/persistence';

import type { AgentRoster } from '../agents';
import { toolDefinition } from '../engine';
import type { TaskLifecycle } from '../tasks';
import { MAX_ENTRY_CHARS, type MemoryService } from './memory.service';
import type { OrgFactProposals } from './org-fact-proposals';

/** The memory tools' names (offered only while memory is wired). */
export const MEMORY_TOOLS: ReadonlySet<string> = new Set(['remember', 'recall', 'propose_org_fact']);

/** Categories an agent stores itself (episodic entries are the engine's, one per run). */
const STORED_CATEGORIES = MEMORY_CATEGORIES.filter((c) => c !== 'episodic');

const rememberSchema = z.strictObject({
  category: z
    .enum(STORED_CATEGORIES)
    .default('semantic')
    .describe('semantic: a fact; procedural: how to do something.'),
  content: z.string().min(1).max(MAX_ENTRY_CHARS).describe('What to remember, self-contained and short.'),
});

const recallSchema = z.strictObject({
  query: z.string().min(1).max(MAX_ENTRY_CHARS).describe('What you are looking for.'),
  category: z.enum(MEMORY_CATEGORIES).optional(),
});

const proposeSchema = z.strictObject({
  category: z
    .enum(ORG_FACT_CATEGORIES)
    .describe('core_policy, adr (an architecture decision), procedure or convention.'),
  content: z.string().min(1).max(MAX_ENTRY_CHARS).describe('The fact as every agent should read it, self-contained.'),
  reason: z.string().min(1).max(256).describe('Why the organisation should know it.'),
});

interface Deps {
  memory: MemoryService;
  roster: AgentRoster;
  tasks: TaskLifecycle;
}

async function caller(deps: Deps, ctx: ToolContext): Promise<AgentEntity> {
  const agent = await deps.roster.findByRef(ctx.agentId);
  if (!agent) {
    throw new ToolError(`agent ${ctx.agentName} is unknown`);
  }
  return agent;
}

function asToolError(error: unknown): never {
  if (error instanceof AppError) {
    throw new ToolError(`${error.message} (${error.code})`);
  }
  throw error;
}

/** `remember`: the agent stores a fact or procedure in its own memory, at its memory level. */
export function rememberTool(deps: Deps): AgentTool<z.infer<typeof rememberSchema>> {
  return {
    definition: toolDefinition(
      'remember',
      'Store a fact or procedure in your memory for later tasks (what is not written anywhere else).',
      rememberSchema,
    ),
    schema: rememberSchema,
    access: 'read',
    execute: async (args, ctx) => {
      try {
        const agent = await caller(deps, ctx);
        const task = await deps.tasks.find(ctx.taskId);
        const row = await deps.memory.store(
          agent,
          {
            category: args.category,
            content: args.content,
            task: task ? { id: task.id, project: task.project } : null,
          },
          { agentId: agent.id, taskId: ctx.taskId },
        );
        return row
          ? `remembered (${row.category}, ${row.level}): ${row.id}`
          : 'not remembered: your memory type is none';
      } catch (error) {
        return asToolError(error);
      }
    },
  };
}

/** `recall`: the agent searches its memory (action type memory:read). */
export function recallTool(deps: Deps): AgentTool<z.infer<typeof recallSchema>> {
  return {
    definition: toolDefinition(
      'recall',
      'Search your memory for entries relevant to a query, best first.',
      recallSchema,
    ),
    schema: recallSchema,
    access: 'read',
    execute: async (args, ctx) => {
      try {
        const agent = await caller(deps, ctx);
        if (deps.memory.levelOf(agent) === 'none') {
          return 'no memory: your memory type is none';
        }
        const task = await deps.tasks.find(ctx.taskId);
        const hits = await deps.memory.search(
          agent,
          args.query,
          {
            limit: 10,
            category: args.category,
            scope: task ? { taskId: task.id, project: task.project } : undefined,
          },
          { agentId: agent.id, taskId: ctx.taskId },
        );
        if (hits.length === 0) {
          return 'nothing relevant remembered';
        }
        return hits.map((h) => `- (${h.relevance.toFixed(2)}, ${h.entry.category}) ${h.entry.content}`).join('\n');
      } catch (error) {
        return asToolError(error);
      }
    },
  };
}

/**
 * `propose_org_fact`: the agent proposes a fact for the whole organisation (its department's). It
 * only files an approval item; a person's approval stores the fact (see OrgFactProposals).
 */
export function proposeOrgFactTool(
  deps: Deps & { proposals: OrgFactProposals },
): AgentTool<z.infer<typeof proposeSchema>> {
  return {
    definition: toolDefinition(
      'propose_org_fact',
      'Propose an organisation fact (policy, decision, procedure, convention) for every agent; a person approves it.',
      proposeSchema,
    ),
    schema: proposeSchema,
    access: 'read',
    execute: async (args, ctx) => {
      try {
        const agent = await caller(deps, ctx);
        const approvalId = await deps.proposals.propose(agent, args);
        return `proposed: approval item ${approvalId} decides whether it becomes an organisation fact`;
      } catch (error) {
        return asToolError(error);
      }
    },
  };
}
