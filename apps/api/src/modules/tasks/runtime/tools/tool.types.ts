import type { ToolDefinition } from '@app/domain';
import type { z } from 'zod';

/** What a tool may act on: the task's worktree, and who is acting. */
export interface ToolContext {
  root: string;
  taskId: string;
  agentId: string;
  agentName: string;
  signal?: AbortSignal;
  commit?: (message: string) => Promise<{ committed: boolean; sha: string | null }>;
}

export interface ToolResult {
  content: string;
  isError: boolean;
}

/**
 * What a tool does to the workspace. A `read` tool never changes a file, so until a task's first
 * `write` it can run against the base branch's checkout instead of a worktree of its own.
 */
export type ToolAccess = 'read' | 'write';

/** `execute` throws ToolError for failures the agent can recover from (bad path, missing file). */
export interface AgentTool<A = unknown> {
  readonly definition: ToolDefinition;
  readonly schema: z.ZodType<A>;
  /** Absent means `write`: a tool is trusted to leave the files alone only when it says so. */
  readonly access?: ToolAccess;
  execute(args: A, ctx: ToolContext): Promise<string>;
}

/** A failure reported back to the agent as the tool's result, not an engine fault. */
export class ToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolError';
  }
}

export interface ToolCallInfo {
  tool: string;
  arguments: Record<string, unknown>;
}

export interface ToolSecurityCheck {
  readonly name: string;
  check(call: ToolCallInfo, ctx: ToolContext): Promise<{ allowed: true } | { allowed: false; reason: string }>;
}

/** May redact the output; throwing withholds it (fail closed). */
export interface ToolOutputScanner {
  readonly name: string;
  scan(output: string, call: { tool: string }, ctx: ToolContext): Promise<{ output: string }>;
}
