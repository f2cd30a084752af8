import {
  DEFAULT_TOOL_ACCESS_LEVEL,
  resolveToolPermission,
  TOOL_ACCESS_LEVELS,
  type ToolAccessLevel,
  type ToolOfferAgent,
  type ToolOfferFilter,
  type ToolPermissions,
  toolSecurityProfile,
} from '@app/domain';

import type { SecurityPolicySource } from './security-policy';

function names(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/**
 * The agent's tool access from its `tools` settings: `access_level` (standard when absent or not a
 * level), `allowed` and `denied` tool names.
 */
export function toolPermissionsOf(agent: { readonly settings: unknown }): ToolPermissions {
  const tools = (agent.settings as { tools?: { access_level?: unknown; allowed?: unknown; denied?: unknown } }).tools;
  const level = tools?.access_level;
  const accessLevel: ToolAccessLevel =
    typeof level === 'string' && (TOOL_ACCESS_LEVELS as readonly string[]).includes(level)
      ? (level as ToolAccessLevel)
      : DEFAULT_TOOL_ACCESS_LEVEL;
  return { accessLevel, allowed: names(tools?.allowed), denied: names(tools?.denied) };
}

/**
 * The engine's tool offer narrowed to what the agent's access level grants (denied list, allowed
 * list, level categories, deny): the model never sees a tool the call-time check would refuse. With
 * security disabled or in shadow mode nothing is refused at call time, so everything is offered.
 */
export function toolAccessOfferFilter(policies: Pick<SecurityPolicySource, 'mode'>): ToolOfferFilter {
  return {
    name: 'security.tool_access',
    offer(tools: readonly string[], agent: ToolOfferAgent): readonly string[] {
      if (policies.mode() !== 'active') {
        return tools;
      }
      const permissions = toolPermissionsOf(agent);
      return tools.filter(
        (tool) => resolveToolPermission(permissions, tool, toolSecurityProfile(tool).category).granted,
      );
    },
  };
}
