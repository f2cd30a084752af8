import { deriveToolAction, mcpToolName } from '@app/domain';

import type { ToolServerDto, ToolServerToolDto } from './dto/tool-server.dto';
import type { LinkHealth } from './server-link';
import type { ToolServerRecord } from './tool-server-record';

/** A server as the API shows it: secrets only as names and flags. */
export function toToolServerDto(record: ToolServerRecord, health: LinkHealth, replica: string): ToolServerDto {
  return {
    name: record.name,
    transport: record.transport,
    command: record.command,
    args: record.args,
    env_names: record.envNames,
    url: record.url,
    auth_header_name: record.authHeaderName,
    has_auth_header_value: record.secrets.auth !== undefined,
    allowed_departments: [...record.allowlist.departments],
    allowed_agents: [...record.allowlist.agents],
    tool_actions: record.toolActions,
    tool_count: record.tools.length,
    tools_listed_at: record.toolsListedAt?.toISOString() ?? null,
    health: { replica, connected: health.connected, last_error: health.lastError, restarts: health.restarts },
    version: record.version,
    created_at: record.createdAt.toISOString(),
    updated_at: record.updatedAt.toISOString(),
  };
}

/** A server's listed tools with the name models see and the action type the security pipeline uses. */
export function toToolDtos(record: ToolServerRecord): ToolServerToolDto[] {
  return record.tools.map((tool) => {
    const derived = deriveToolAction(record.toolActions[tool.name], tool.annotations);
    return {
      name: mcpToolName(record.name, tool.name),
      tool: tool.name,
      description: tool.description,
      input_schema: tool.inputSchema,
      annotations: { ...tool.annotations },
      action_type: derived.action,
      action_source: derived.source,
    };
  });
}
