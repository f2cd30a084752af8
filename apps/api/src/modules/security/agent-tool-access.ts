import { DEFAULT_TOOL_ACCESS_LEVEL, TOOL_ACCESS_LEVELS, type ToolAccessLevel, type ToolPermissions } from '@app/domain';
import type { AgentEntity } from '@app/persistence';

function names(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/**
 * The agent's tool access from its `tools` settings: `access_level` (standard when absent or not a
 * level), `allowed` and `denied` tool names.
 */
export function toolPermissionsOf(agent: Pick<AgentEntity, 'settings'>): ToolPermissions {
  const tools = (agent.settings as { tools?: { access_level?: unknown; allowed?: unknown; denied?: unknown } }).tools;
  const level = tools?.access_level;
  const accessLevel: ToolAccessLevel =
    typeof level === 'string' && (TOOL_ACCESS_LEVELS as readonly string[]).includes(level)
      ? (level as ToolAccessLevel)
      : DEFAULT_TOOL_ACCESS_LEVEL;
  return { accessLevel, allowed: names(tools?.allowed), denied: names(tools?.denied) };
}
