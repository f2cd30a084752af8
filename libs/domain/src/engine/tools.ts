import type { ToolDefinition } from '../providers/driver';
import type { ToolSecurityProfile } from '../security/tool-access';

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
  /**
   * How the security layer classifies the tool, for tools the built-in profile table cannot know (a
   * tool server's, registered at runtime). Absent: the table's profile of the tool's name.
   */
  readonly security?: ToolSecurityProfile;
  execute(args: A, ctx: ToolContext): Promise<string>;
}

/**
 * Tools that come and go at runtime (a tool server's, as servers are registered and their tools
 * discovered). The invoker asks for the current list whenever it offers or looks up a tool, so the
 * answer must be cheap and synchronous: a source keeps its own catalogue in memory.
 */
export interface ToolSource {
  readonly name: string;
  tools(): readonly AgentTool[];
}

/** A failure reported back to the agent as the tool's result, not an engine fault. */
export class ToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolError';
  }
}
