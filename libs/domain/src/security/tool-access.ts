import type { ActionType } from './action-types';

/** What kind of thing a tool touches; access levels grant whole categories. */
export const TOOL_CATEGORIES = [
  'file_system',
  'code_execution',
  'version_control',
  'web',
  'database',
  'terminal',
  'design',
  'communication',
  'analytics',
  'deployment',
  'mcp',
  'other',
] as const;
export type ToolCategory = (typeof TOOL_CATEGORIES)[number];

/** The action a tool of a category counts as when it declares none. */
export const DEFAULT_CATEGORY_ACTION: Readonly<Record<ToolCategory, ActionType>> = {
  file_system: 'code:write',
  code_execution: 'code:write',
  version_control: 'vcs:commit',
  web: 'comms:external',
  database: 'db:query',
  terminal: 'code:write',
  design: 'docs:write',
  communication: 'comms:internal',
  analytics: 'code:read',
  deployment: 'deploy:staging',
  mcp: 'code:write',
  other: 'code:read',
};

/** How the security layer classifies one tool: its category and the action a call of it is. */
export interface ToolSecurityProfile {
  readonly category: ToolCategory;
  readonly action: ActionType;
}

/**
 * The engine's tools as the security layer sees them. A tool left out is `other`: granted only by
 * `elevated` access or an explicit allow, so a new tool is never quietly trusted.
 */
export const TOOL_SECURITY_PROFILES: Readonly<Record<string, ToolSecurityProfile>> = {
  list_files: { category: 'file_system', action: 'code:read' },
  read_file: { category: 'file_system', action: 'code:read' },
  search_files: { category: 'file_system', action: 'code:read' },
  write_file: { category: 'file_system', action: 'code:write' },
  commit_changes: { category: 'version_control', action: 'vcs:commit' },
  run_command: { category: 'code_execution', action: DEFAULT_CATEGORY_ACTION.code_execution },
  // Messages to the company's own channels and agents: granted by `elevated` access or an explicit allow.
  send_message: { category: 'communication', action: 'comms:internal' },
  // Handing work to another agent of the company is internal communication too (no action type of its own).
  delegate_task: { category: 'communication', action: 'comms:internal' },
  // Asking for a new colleague: a hiring request a person decides (granted by `elevated` access or an explicit allow).
  request_hire: { category: 'communication', action: 'org:hire' },
  // The agent's own memory: reading it is memory:read; storing into it touches nothing but the agent's
  // own memory (the catalogue has no memory write action), so it is classified the same way.
  recall: { category: 'analytics', action: 'memory:read' },
  remember: { category: 'analytics', action: 'memory:read' },
  // Proposing an organisation fact writes nothing: it files an approval item, and a person's approval stores it.
  propose_org_fact: { category: 'analytics', action: 'memory:read' },
  // No agent tool fires anyone; a tool of this name (an MCP server's, say) is org:fire, always hard-denied.
  fire_agent: { category: 'other', action: 'org:fire' },
};

/** A tool server's tool whose own profile is not at hand: counted as destructive (high risk). */
export const MCP_UNKNOWN_PROFILE: ToolSecurityProfile = Object.freeze({ category: 'mcp', action: 'code:delete' });

/** The profile of a tool by name (trimmed, case-insensitive); unknown tools are `other`. */
export function toolSecurityProfile(tool: string): ToolSecurityProfile {
  const key = toolNameKey(tool);
  const known = Object.hasOwn(TOOL_SECURITY_PROFILES, key) ? TOOL_SECURITY_PROFILES[key] : undefined;
  if (known) {
    return known;
  }
  // A tool server's tool (`server__tool`) seen without its own profile: the `mcp` category at high risk.
  return key.includes('__') ? MCP_UNKNOWN_PROFILE : { category: 'other', action: DEFAULT_CATEGORY_ACTION.other };
}

/** Tool access levels, least to most access; `custom` grants only its allowed list. */
export const TOOL_ACCESS_LEVELS = ['sandboxed', 'restricted', 'standard', 'elevated', 'custom'] as const;
export type ToolAccessLevel = (typeof TOOL_ACCESS_LEVELS)[number];
export const DEFAULT_TOOL_ACCESS_LEVEL: ToolAccessLevel = 'standard';

const SANDBOXED: readonly ToolCategory[] = ['file_system', 'code_execution', 'version_control'];
const RESTRICTED: readonly ToolCategory[] = [...SANDBOXED, 'web'];
const STANDARD: readonly ToolCategory[] = [...RESTRICTED, 'terminal', 'analytics'];

/** The categories each access level grants. */
export const ACCESS_LEVEL_CATEGORIES: Readonly<Record<ToolAccessLevel, readonly ToolCategory[]>> = {
  sandboxed: SANDBOXED,
  restricted: RESTRICTED,
  standard: STANDARD,
  elevated: TOOL_CATEGORIES,
  custom: [],
};

/** An agent's tool access: its level and its explicit allowed and denied tool names. */
export interface ToolPermissions {
  readonly accessLevel: ToolAccessLevel;
  readonly allowed: readonly string[];
  readonly denied: readonly string[];
}

/** Which rule decided a permission question. */
export type ToolPermissionRule = 'denied_list' | 'allowed_list' | 'access_level' | 'default_deny';

export interface ToolPermissionDecision {
  readonly granted: boolean;
  readonly rule: ToolPermissionRule;
  readonly reason: string;
}

/** Tool names compare trimmed and case-insensitively. */
export function toolNameKey(name: string): string {
  return name.trim().toLowerCase();
}

/**
 * Whether the agent may call the tool: the denied list first, then the allowed list, then the
 * categories of the access level, and otherwise no.
 */
export function resolveToolPermission(
  permissions: ToolPermissions,
  tool: string,
  category: ToolCategory,
): ToolPermissionDecision {
  const key = toolNameKey(tool);
  if (permissions.denied.some((name) => toolNameKey(name) === key)) {
    return { granted: false, rule: 'denied_list', reason: `tool ${tool} is on the agent's denied list` };
  }
  if (permissions.allowed.some((name) => toolNameKey(name) === key)) {
    return { granted: true, rule: 'allowed_list', reason: `tool ${tool} is on the agent's allowed list` };
  }
  if (ACCESS_LEVEL_CATEGORIES[permissions.accessLevel].includes(category)) {
    return {
      granted: true,
      rule: 'access_level',
      reason: `access level ${permissions.accessLevel} grants ${category} tools`,
    };
  }
  return {
    granted: false,
    rule: 'default_deny',
    reason: `access level ${permissions.accessLevel} does not grant ${category} tools such as ${tool}`,
  };
}
