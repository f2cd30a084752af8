import type { ToolDefinition } from '../providers/driver';

/** What a tool may act on: the task's worktree, and who is acting. */
export interface ToolContext {
  root: string;
  taskId: string;
  agentId: string;
  agentName: string;
  signal?: AbortSignal;
  commit?: (message: string) => Promise<{ committed: boolean; sha: string | null }>;
}

/** A tool call's result as the model reads it. */
export interface ToolResult {
  content: string;
  isError: boolean;
}

/**
 * What a tool does to the workspace. A `read` tool never changes a file, so until a task's first
 * `write` it can run against the base branch's checkout instead of a worktree of its own.
 */
export type ToolAccess = 'read' | 'write';

/** One problem with a tool call's arguments, as the argument schema reports it. */
export interface ToolArgumentIssue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/**
 * Validates a tool call's arguments and applies their defaults. A zod schema fits this shape; the
 * domain names only what the engine calls, so it stays free of the validation library.
 */
export interface ToolArgumentSchema<A> {
  safeParse(
    value: unknown,
  ): { success: true; data: A } | { success: false; error: { issues: readonly ToolArgumentIssue[] } };
}

/** A tool an agent can call. `execute` throws ToolError for failures the agent can recover from. */
export interface AgentTool<A = unknown> {
  readonly definition: ToolDefinition;
  readonly schema: ToolArgumentSchema<A>;
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
