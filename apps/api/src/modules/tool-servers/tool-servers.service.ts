import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import {
  applySecretChange,
  assertSecretsFollowDestination,
  assertServerEnvName,
  assertToolActions,
  assertToolServerName,
  changedSecretNames,
  ConflictError,
  ErrorCode,
  NotFoundError,
  Page,
  type PageRequest,
  parseBaseUrl,
  type SecretChange,
  type SecretInput,
  secretChange,
  type ToolServerTransport,
  ValidationError,
} from '@app/domain';
import { ToolServerEntity } from '@app/persistence';
import { type ActorContext, LOGGING_RUNTIME, type LoggingRuntime, SecretCipher } from '@app/platform';

import { AuditTrail } from '../audit';
import { DiscoveryPolicyService } from '../providers';
import type {
  CreateToolServerDto,
  ToolServerDto,
  ToolServerTestResultDto,
  ToolServerToolDto,
  UpdateToolServerDto,
} from './dto/tool-server.dto';
import { ToolServerLinks } from './tool-server-links';
import { sealServerSecrets, type ToolServerRecord, type ToolServerSecrets, toServerRecord } from './tool-server-record';
import { toToolDtos, toToolServerDto } from './tool-servers.mapper';
import { ToolServersRepository } from './tool-servers.repository';

const MAX_ENV = 64;

/** What a create or update leaves: the whole configuration, validated, secrets in clear. */
interface ServerDraft {
  name: string;
  transport: ToolServerTransport;
  command: string | null;
  args: string[];
  url: string | null;
  authHeaderName: string | null;
  secrets: ToolServerSecrets;
  departments: string[];
  agents: string[];
  toolActions: Record<string, string>;
}

/** Tool server CRUD: validation, encrypted secrets, the address policy, audit and the change announcement. */
@Injectable()
export class ToolServersService {
  private readonly log: Logger;

  constructor(
    private readonly repository: ToolServersRepository,
    private readonly links: ToolServerLinks,
    private readonly cipher: SecretCipher,
    private readonly trail: AuditTrail,
    private readonly addresses: DiscoveryPolicyService,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('tools.servers');
  }

  async list(page: PageRequest): Promise<Page<ToolServerDto>> {
    const { items, total } = await this.repository.page(page.offset, page.limit);
    const dtos = items.map((row) => {
      const record = toServerRecord(row, this.cipher);
      return toToolServerDto(record, this.links.health(record.name), this.links.replica);
    });
    return new Page(dtos, total, page.offset, page.limit);
  }

  async get(name: string): Promise<ToolServerDto> {
    return toToolServerDto(await this.record(name), this.links.health(name), this.links.replica);
  }

  async tools(name: string): Promise<ToolServerToolDto[]> {
    return toToolDtos(await this.record(name));
  }

  async create(actor: ActorContext, dto: CreateToolServerDto): Promise<ToolServerDto> {
    assertToolServerName(dto.name);
    const env = envChange(dto.env, false);
    const auth = secretChange('auth_header_value', dto.auth_header_value);
    const draft = validate({
      name: dto.name,
      transport: dto.transport as ToolServerTransport,
      command: dto.command ?? null,
      args: dto.args ?? [],
      url: dto.url ?? null,
      authHeaderName: dto.auth_header_name ?? null,
      secrets: secretsAfter(env, auth, { env: {} }),
      departments: dto.allowed_departments ?? [],
      agents: dto.allowed_agents ?? [],
      toolActions: dto.tool_actions ?? {},
    });
    if (await this.repository.findByName(dto.name)) {
      throw new ConflictError(`tool server "${dto.name}" already exists`, ErrorCode.ToolServerExists);
    }
    if (draft.url) {
      await this.addresses.admit(actor, [draft.url], dto.trust_address === true);
    }
    const now = new Date();
    try {
      await this.repository.insert(this.toEntity(draft, null, 1, now, now));
    } catch (error) {
      if (await this.repository.findByName(dto.name)) {
        throw new ConflictError(`tool server "${dto.name}" already exists`, ErrorCode.ToolServerExists);
      }
      throw error;
    }
    await this.changed(actor, dto.name, 'created', secretNames(env, auth, { env: {} }));
    return this.get(dto.name);
  }

  async update(actor: ActorContext, name: string, dto: UpdateToolServerDto): Promise<ToolServerDto> {
    const current = await this.record(name);
    const env = envChange(dto.env, dto.clear_env === true);
    const auth = secretChange('auth_header_value', dto.auth_header_value, dto.clear_auth_header_value);
    const draft = validate({
      name,
      transport: current.transport,
      command: dto.command ?? current.command,
      args: dto.args ?? current.args,
      url: dto.url ?? current.url,
      authHeaderName: dto.auth_header_name ?? current.authHeaderName,
      secrets: secretsAfter(env, auth, current.secrets),
      departments: dto.allowed_departments ?? [...current.allowlist.departments],
      agents: dto.allowed_agents ?? [...current.allowlist.agents],
      toolActions: dto.tool_actions ?? current.toolActions,
    });
    // Credentials follow their destination: a new program or URL must be given the secrets again.
    assertSecretsFollowDestination(
      'tool server',
      [
        { wireName: 'command', before: current.command, after: draft.command },
        { wireName: 'args', before: JSON.stringify(current.args), after: JSON.stringify(draft.args) },
        { wireName: 'url', before: current.url, after: draft.url },
        { wireName: 'auth_header_name', before: current.authHeaderName, after: draft.authHeaderName },
      ],
      secretInputs(env, auth, current.secrets),
      ErrorCode.ToolServerSecretsMustFollow,
    );
    if (draft.url && draft.url !== current.url) {
      await this.addresses.admit(actor, [draft.url], dto.trust_address === true);
    }
    const entity = this.toEntity(draft, current, current.version + 1, current.createdAt, new Date());
    if (!(await this.repository.update(entity, current.version))) {
      throw new ConflictError(
        `tool server "${name}" was changed concurrently; reload it and retry`,
        ErrorCode.ToolServerVersionConflict,
      );
    }
    await this.changed(actor, name, 'updated', secretNames(env, auth, current.secrets));
    return this.get(name);
  }

  async delete(actor: ActorContext, name: string): Promise<void> {
    if (!(await this.repository.delete(name))) {
      throw new NotFoundError(`tool server "${name}" not found`, ErrorCode.ToolServerNotFound);
    }
    await this.links.reload(name);
    await this.trail.record({
      actor: actor.username,
      action: 'tool_server.deleted',
      target: `tool_server:${name}`,
      outcome: 'success',
    });
    await this.links.announce(actor, name, 'deleted');
  }

  /** Connects (starting the server if needed) and lists its tools; failures are reported, not thrown. */
  async test(name: string): Promise<ToolServerTestResultDto> {
    await this.record(name);
    const started = performance.now();
    try {
      const tools = await this.links.discover(name);
      return {
        success: true,
        latency_ms: Math.round(performance.now() - started),
        tool_count: tools.length,
        error: null,
        error_code: null,
      };
    } catch (error) {
      return {
        success: false,
        latency_ms: null,
        tool_count: null,
        error: error instanceof Error ? error.message : String(error),
        error_code: ErrorCode.ToolServerUnavailable,
      };
    }
  }

  private async record(name: string): Promise<ToolServerRecord> {
    const row = await this.repository.findByName(name);
    if (!row) {
      throw new NotFoundError(`tool server "${name}" not found`, ErrorCode.ToolServerNotFound);
    }
    return toServerRecord(row, this.cipher);
  }

  /** Applies the change here, records it, tells the other replicas, then lists the tools (best effort). */
  private async changed(
    actor: ActorContext,
    name: string,
    change: 'created' | 'updated',
    secrets: string[],
  ): Promise<void> {
    await this.links.reload(name);
    if (change === 'created' || secrets.length > 0) {
      await this.trail.record({
        actor: actor.username,
        action: change === 'created' ? 'tool_server.created' : 'tool_server.secret_changed',
        target: `tool_server:${name}`,
        outcome: 'success',
        details: { changed_fields: secrets },
      });
    }
    await this.links.announce(actor, name, change);
    try {
      await this.links.discover(name);
    } catch (error) {
      // The health in the answer carries the reason; the server stays registered.
      this.log.warn(
        { server: name, err: error instanceof Error ? error.message : String(error) },
        'tools.server.list_failed',
      );
    }
  }

  private toEntity(
    draft: ServerDraft,
    current: ToolServerRecord | null,
    version: number,
    createdAt: Date,
    updatedAt: Date,
  ): ToolServerEntity {
    const sealed = sealServerSecrets(draft.secrets, this.cipher);
    const entity = new ToolServerEntity();
    Object.assign(entity, {
      name: draft.name,
      transport: draft.transport,
      command: draft.command,
      args: draft.args,
      envNames: Object.keys(draft.secrets.env).sort(),
      url: draft.url,
      authHeaderName: draft.authHeaderName,
      secrets: sealed.secrets,
      secretsKeyId: sealed.secretsKeyId,
      allowedDepartments: draft.departments,
      allowedAgents: draft.agents,
      toolActions: draft.toolActions,
      // A new destination lists its own tools; until then it offers none.
      tools: current && sameDestination(current, draft) ? current.tools : [],
      toolsListedAt: current && sameDestination(current, draft) ? current.toolsListedAt : null,
      version,
      createdAt,
      updatedAt,
    });
    return entity;
  }
}

function sameDestination(current: ToolServerRecord, draft: ServerDraft): boolean {
  return (
    current.command === draft.command &&
    JSON.stringify(current.args) === JSON.stringify(draft.args) &&
    current.url === draft.url
  );
}

function invalid(message: string): ValidationError {
  return new ValidationError(message, ErrorCode.ToolServerInvalid);
}

/** The transport's fields present, the other transport's absent, names and action types known. */
function validate(draft: ServerDraft): ServerDraft {
  if (draft.transport === 'stdio') {
    if (!draft.command) {
      throw invalid('a stdio server needs a command');
    }
    if (draft.url !== null || draft.authHeaderName !== null || draft.secrets.auth !== undefined) {
      throw invalid('a stdio server takes no url or auth header');
    }
  } else {
    if (!draft.url) {
      throw invalid('an http server needs a url');
    }
    if (draft.command !== null || draft.args.length > 0 || Object.keys(draft.secrets.env).length > 0) {
      throw invalid('an http server takes no command, args or env');
    }
    try {
      draft.url = parseBaseUrl(draft.url, 'url').toString();
    } catch (error) {
      throw invalid(error instanceof Error ? error.message : String(error));
    }
    if ((draft.secrets.auth === undefined) !== (draft.authHeaderName === null)) {
      throw invalid('auth_header_name and auth_header_value go together');
    }
    if (draft.authHeaderName !== null && !/^[A-Za-z0-9-]+$/.test(draft.authHeaderName)) {
      throw invalid('auth_header_name must be a header name (letters, digits, "-")');
    }
  }
  draft.toolActions = assertToolActions(draft.toolActions);
  return draft;
}

type EnvChange = { kind: 'keep' } | { kind: 'set'; value: Record<string, string> } | { kind: 'clear' };

function envChange(env: Record<string, string> | undefined, clear: boolean): EnvChange {
  if (clear) {
    if (env !== undefined) {
      throw new ValidationError('env and clear_env cannot be given together', ErrorCode.ToolServerInvalid);
    }
    return { kind: 'clear' };
  }
  if (env === undefined) {
    return { kind: 'keep' };
  }
  const entries = Object.entries(env);
  if (entries.length > MAX_ENV) {
    throw invalid(`env holds at most ${MAX_ENV} variables`);
  }
  for (const [name, value] of entries) {
    assertServerEnvName(name);
    if (typeof value !== 'string' || value === '' || value.length > 8192) {
      throw invalid(`env.${name} must be a non-empty string of at most 8192 characters`);
    }
  }
  return { kind: 'set', value: { ...env } };
}

function secretsAfter(env: EnvChange, auth: SecretChange, stored: ToolServerSecrets): ToolServerSecrets {
  const nextEnv = env.kind === 'keep' ? stored.env : env.kind === 'clear' ? {} : env.value;
  const nextAuth = applySecretChange(auth, stored.auth);
  return { env: nextEnv, ...(nextAuth === undefined ? {} : { auth: nextAuth }) };
}

function secretInputs(env: EnvChange, auth: SecretChange, stored: ToolServerSecrets): SecretInput[] {
  const envAsSecret: SecretChange = env.kind === 'set' ? { kind: 'set', value: JSON.stringify(env.value) } : env;
  return [
    { wireName: 'env', stored: Object.keys(stored.env).length > 0, change: envAsSecret },
    { wireName: 'auth_header_value', stored: stored.auth !== undefined, change: auth },
  ];
}

function secretNames(env: EnvChange, auth: SecretChange, stored: ToolServerSecrets): string[] {
  return changedSecretNames(secretInputs(env, auth, stored));
}
