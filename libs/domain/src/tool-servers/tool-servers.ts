import { ErrorCode, ValidationError } from '../errors';
import { type ActionType, isActionType } from '../security/action-types';
import type { AutonomyLevel } from '../company/enums';
import { compareRisk, riskLevelOf } from '../security/risk';

/** How the service reaches a tool server: a child process speaking on stdio, or Streamable HTTP. */
export const TOOL_SERVER_TRANSPORTS = ['stdio', 'http'] as const;
export type ToolServerTransport = (typeof TOOL_SERVER_TRANSPORTS)[number];

/** Between a server's name and its tool's in the name the model sees (`server__tool`). */
export const MCP_TOOL_SEPARATOR = '__';

/** Server names: lower case, digits, `-` and single `_`, so `server__tool` splits back unambiguously. */
const SERVER_NAME = /^[a-z][a-z0-9-]*(?:_[a-z0-9-]+)*$/;
export const TOOL_SERVER_NAME_MAX = 40;
/** Model vendors accept tool names of at most 64 characters from `[A-Za-z0-9_-]`. */
const TOOL_NAME = /^[A-Za-z0-9_-]+$/;
export const MCP_TOOL_NAME_MAX = 64;

/** @throws ValidationError (2900) for a name that cannot prefix tool names. */
export function assertToolServerName(name: string): void {
  if (name.length === 0 || name.length > TOOL_SERVER_NAME_MAX || !SERVER_NAME.test(name)) {
    throw new ValidationError(
      `tool server name "${name}" must be 1-${TOOL_SERVER_NAME_MAX} characters: a lower-case letter, then ` +
        'lower-case letters, digits, "-" or single "_"',
      ErrorCode.ToolServerInvalid,
    );
  }
}

/** The name the model sees for a server's tool; null when it cannot be offered (bad characters, too long). */
export function mcpToolName(server: string, tool: string): string | null {
  const name = `${server}${MCP_TOOL_SEPARATOR}${tool}`;
  return TOOL_NAME.test(tool) && name.length <= MCP_TOOL_NAME_MAX ? name : null;
}

/** Whether a tool name is a namespaced tool server's (built-in names never hold the separator). */
export function isMcpToolName(name: string): boolean {
  return name.includes(MCP_TOOL_SEPARATOR);
}

/** What a server says about a tool's behaviour (hints, not guarantees: only trusted servers' count). */
export interface McpToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** How an action type for a tool was decided. */
export type ToolActionSource = 'explicit' | 'read_only_hint' | 'destructive_hint' | 'non_destructive_hint' | 'unknown';

/**
 * A server tool's action type: the operator's explicit one, else from the annotations — read-only is
 * `code:read`, destructive `code:delete`, declared non-destructive `code:write` — and a tool that says
 * nothing counts as `code:delete` (high risk): an outside tool is never quietly trusted.
 */
export function deriveToolAction(
  explicit: string | undefined,
  annotations: McpToolAnnotations | undefined,
): { action: ActionType; source: ToolActionSource } {
  if (explicit !== undefined && isActionType(explicit)) {
    return { action: explicit, source: 'explicit' };
  }
  if (annotations?.readOnlyHint === true) {
    return { action: 'code:read', source: 'read_only_hint' };
  }
  if (annotations?.destructiveHint === true) {
    return { action: 'code:delete', source: 'destructive_hint' };
  }
  if (annotations?.destructiveHint === false) {
    return { action: 'code:write', source: 'non_destructive_hint' };
  }
  return { action: 'code:delete', source: 'unknown' };
}

/** @throws ValidationError (2900) for a tool → action map with an unknown action type or tool name. */
export function assertToolActions(actions: Record<string, unknown>): Record<string, ActionType> {
  const out: Record<string, ActionType> = {};
  for (const [tool, action] of Object.entries(actions)) {
    if (!TOOL_NAME.test(tool) || tool.length > MCP_TOOL_NAME_MAX) {
      throw new ValidationError(`tool_actions: "${tool}" is not a tool name`, ErrorCode.ToolServerInvalid);
    }
    if (typeof action !== 'string' || !isActionType(action)) {
      throw new ValidationError(
        `tool_actions.${tool}: "${String(action)}" is not an action type (category:action from the catalogue)`,
        ErrorCode.ToolServerInvalid,
      );
    }
    out[tool] = action;
  }
  return out;
}

/**
 * Whether a call of a server tool goes to a person whatever the pipeline allowed: a high-risk (or worse)
 * outside tool — destructive, or one that did not say — needs approval at every level but `full`.
 */
export function serverToolNeedsPerson(level: AutonomyLevel, action: string): boolean {
  return level !== 'full' && compareRisk(riskLevelOf(action), 'high') >= 0;
}

/** Who may use a server: departments and agents (ids or names); empty lists let no one. */
export interface ToolServerAllowlist {
  readonly departments: readonly string[];
  readonly agents: readonly string[];
}

/** Whether the agent is on the server's allowlist (by department, id or name; names case-insensitive). */
export function serverAllows(
  allowlist: ToolServerAllowlist,
  agent: { id: string; name?: string; department?: string | null },
): boolean {
  const lower = (value: string): string => value.trim().toLowerCase();
  const department = agent.department ? lower(agent.department) : null;
  if (department !== null && allowlist.departments.some((d) => lower(d) === department)) {
    return true;
  }
  const name = agent.name ? lower(agent.name) : null;
  return allowlist.agents.some((a) => a === agent.id || (name !== null && lower(a) === name));
}

/** Environment names a stdio server may be given: POSIX-style, never the loader's or Node's own hooks. */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
const FORBIDDEN_ENV = /^(LD_|DYLD_)|^NODE_OPTIONS$/;

/** @throws ValidationError (2900) for an environment name a server must not be given. */
export function assertServerEnvName(name: string): void {
  if (!ENV_NAME.test(name) || FORBIDDEN_ENV.test(name)) {
    throw new ValidationError(
      `env: "${name}" is not an allowed variable name (letters, digits, "_"; no LD_*, DYLD_* or NODE_OPTIONS)`,
      ErrorCode.ToolServerInvalid,
    );
  }
}

/** Delay before the n-th restart in a row (1-based) of a crashed server: 250 ms doubling, at most 30 s. */
export function restartDelayMs(attempt: number): number {
  return Math.min(30_000, 250 * 2 ** Math.max(0, attempt - 1));
}

/** Replaces every occurrence of a secret (4 characters or longer) in a text by `[REDACTED]`. */
export function redactKnownSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= 4) {
      out = out.split(secret).join('[REDACTED]');
    }
  }
  return out;
}
