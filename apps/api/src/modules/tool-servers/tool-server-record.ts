import type { ActionType, McpToolAnnotations, ToolServerAllowlist, ToolServerTransport } from '@app/domain';
import type { JsonObject, ToolServerEntity } from '@app/persistence';
import type { SecretCipher } from '@app/platform';

/** One tool as its server listed it. */
export interface ListedTool {
  name: string;
  description: string;
  inputSchema: JsonObject;
  annotations: McpToolAnnotations;
}

/** The secrets of a server: environment values and the auth header's value. */
export interface ToolServerSecrets {
  env: Record<string, string>;
  auth?: string;
}

/** A stored server with its secrets opened: what the links connect with. Never rendered as is. */
export interface ToolServerRecord {
  name: string;
  transport: ToolServerTransport;
  command: string | null;
  args: string[];
  envNames: string[];
  url: string | null;
  authHeaderName: string | null;
  secrets: ToolServerSecrets;
  allowlist: ToolServerAllowlist;
  toolActions: Record<string, ActionType>;
  tools: ListedTool[];
  toolsListedAt: Date | null;
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

export function sealServerSecrets(
  secrets: ToolServerSecrets,
  cipher: SecretCipher,
): { secrets: string | null; secretsKeyId: string | null } {
  if (Object.keys(secrets.env).length === 0 && secrets.auth === undefined) {
    return { secrets: null, secretsKeyId: null };
  }
  const sealed = cipher.seal(JSON.stringify(secrets));
  return { secrets: sealed.envelope, secretsKeyId: sealed.keyId };
}

function openSecrets(envelope: string | null, cipher: SecretCipher): ToolServerSecrets {
  if (envelope === null) {
    return { env: {} };
  }
  const parsed = JSON.parse(cipher.open(envelope)) as Partial<ToolServerSecrets>;
  return { env: parsed.env ?? {}, ...(typeof parsed.auth === 'string' ? { auth: parsed.auth } : {}) };
}

export function toServerRecord(entity: ToolServerEntity, cipher: SecretCipher): ToolServerRecord {
  return {
    name: entity.name,
    transport: entity.transport as ToolServerTransport,
    command: entity.command,
    args: entity.args,
    envNames: entity.envNames,
    url: entity.url,
    authHeaderName: entity.authHeaderName,
    secrets: openSecrets(entity.secrets, cipher),
    allowlist: { departments: entity.allowedDepartments, agents: entity.allowedAgents },
    toolActions: entity.toolActions as Record<string, ActionType>,
    tools: entity.tools as unknown as ListedTool[],
    toolsListedAt: entity.toolsListedAt,
    version: entity.version,
    createdAt: entity.createdAt,
    updatedAt: entity.updatedAt,
  };
}

/** The secret values of a server, for redacting them from what it writes. */
export function secretValues(record: Pick<ToolServerRecord, 'secrets'>): string[] {
  return [...Object.values(record.secrets.env), ...(record.secrets.auth ? [record.secrets.auth] : [])];
}
