import { randomUUID } from 'node:crypto';

import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';

import {
  type AgentTool,
  Channel,
  deriveToolAction,
  ErrorCode,
  isMcpToolName,
  MCP_TOOL_SEPARATOR,
  mcpToolName,
  NotFoundError,
  serverAllows,
  type ToolArgumentSchema,
  type ToolCallInfo,
  type ToolContext,
  ToolError,
  type ToolOfferAgent,
  type ToolOfferFilter,
  type ToolSecurityCheck,
  type ToolSecurityVerdict,
  type ToolSource,
} from '@app/domain';
import {
  type ActorContext,
  announce,
  EventBus,
  LOGGING_RUNTIME,
  type LoggingRuntime,
  ReplicaIdentity,
  SecretCipher,
  subscribeTo,
} from '@app/platform';

import { AgentRoster } from '../agents';
import { RunSpend, ToolInvoker } from '../engine';
import { DiscoveryPolicyService, GuardedFetcher } from '../providers';
import { SettingsSnapshot } from '../settings';
import { type LinkHealth, type LinkOptions, ServerLink } from './server-link';
import { type ListedTool, sealServerSecrets, type ToolServerRecord, toServerRecord } from './tool-server-record';
import { ToolServersRepository } from './tool-servers.repository';

const START_RETRY_MS = 5_000;
/** The provider name of a tool server's cost records: `mcp:<server>`. */
const MCP_COST_PROVIDER_PREFIX = 'mcp:';
const DOWN: LinkHealth = { connected: false, lastError: null, restarts: 0, pid: null };

/** Any object: the server validates its own arguments against the schema it published. */
const OBJECT_ARGUMENTS: ToolArgumentSchema<Record<string, unknown>> = {
  safeParse: (value) =>
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? { success: true, data: value as Record<string, unknown> }
      : { success: false, error: { issues: [{ path: [], message: 'expected an object' }] } },
};

/** A run's tool-server calls on this replica: those its earlier parts recorded, and those made here since. */
interface RunCalls {
  before: Promise<number>;
  made: number;
}

/**
 * This replica's tool servers: their configurations (re-read when any replica announces a change),
 * their connections (started on first use, stopped when idle, on change, removal and shutdown), and
 * the engine hooks that offer their tools to allowed agents (`server__tool`), refuse calls from
 * anyone else, cap the calls of a run and charge the costs servers report.
 */
@Injectable()
export class ToolServerLinks implements OnModuleInit, OnModuleDestroy, ToolSource {
  readonly name = 'tool_servers';
  private records = new Map<string, ToolServerRecord>();
  private offered: AgentTool[] = [];
  private readonly links = new Map<string, ServerLink>();
  /**
   * Server calls of each run part on this replica, keyed by the run's stop signal (one per run part:
   * a resumed run has a new one, on whichever replica resumes it).
   */
  private readonly runCalls = new WeakMap<object, RunCalls>();
  private readonly linkOptions: LinkOptions;
  private readonly cleanups: (() => void)[] = [];
  private readonly fetcher: GuardedFetcher;
  private readonly log: Logger;
  private retryTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly repository: ToolServersRepository,
    private readonly cipher: SecretCipher,
    private readonly bus: EventBus,
    private readonly invoker: ToolInvoker,
    private readonly roster: AgentRoster,
    private readonly settings: SettingsSnapshot,
    private readonly spend: RunSpend,
    private readonly identity: ReplicaIdentity,
    policy: DiscoveryPolicyService,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('tools.servers');
    this.fetcher = new GuardedFetcher(() => policy.policy(), { followRedirects: false });
    this.linkOptions = { idleMs: () => this.settings.value<number>('security', 'tool_server_idle_seconds') * 1000 };
  }

  async onModuleInit(): Promise<void> {
    this.invoker.registerToolSource(this);
    this.invoker.registerOfferFilter(this.offerFilter);
    this.invoker.registerSecurityCheck(this.allowlistCheck);
    this.cleanups.push(
      subscribeTo(this.bus, Channel.Tools, (event) => {
        if (event.origin === 'remote') {
          this.reload(event.payload.name).catch((error: unknown) =>
            this.log.error({ err: error, server: event.payload.name }, 'tools.servers.reload_failed'),
          );
        }
      }),
    );
    await this.start();
  }

  async onModuleDestroy(): Promise<void> {
    this.cleanups.splice(0).forEach((cleanup) => cleanup());
    if (this.retryTimer) {
      clearTimeout(this.retryTimer);
    }
    await Promise.all([...this.links.values()].map((link) => link.stop()));
    this.links.clear();
    await this.fetcher.close();
  }

  private async start(): Promise<void> {
    try {
      await this.rotateSecrets();
      await this.reloadAll();
    } catch (error) {
      this.log.warn({ err: error, retry_in_ms: START_RETRY_MS }, 'tools.servers.load_deferred');
      this.retryTimer = setTimeout(() => void this.start(), START_RETRY_MS);
      this.retryTimer.unref();
    }
  }

  /**
   * Re-seals secrets written under an older key with the current one (key rotation), as the provider
   * registry does: a compare-and-set on the version, so replicas starting together seal each once.
   */
  private async rotateSecrets(): Promise<void> {
    for (const row of await this.repository.all()) {
      if (!row.secrets || !this.cipher.needsRotation(row.secretsKeyId)) {
        continue;
      }
      try {
        const sealed = sealServerSecrets(toServerRecord(row, this.cipher).secrets, this.cipher);
        if (await this.repository.update({ ...row, ...sealed, version: row.version + 1 }, row.version)) {
          this.log.info({ server: row.name, key_id: sealed.secretsKeyId }, 'tools.server.secrets_rotated');
        }
      } catch (error) {
        this.log.error({ err: error, server: row.name }, 'tools.server.secrets_rotation_failed');
      }
    }
  }

  /** Re-reads every server (startup, a restore). */
  async reloadAll(): Promise<void> {
    const rows = await this.repository.all();
    const next = new Map(rows.map((row) => [row.name, toServerRecord(row, this.cipher)]));
    for (const name of new Set([...this.records.keys(), ...next.keys()])) {
      await this.apply(name, next.get(name) ?? null);
    }
  }

  /** Re-reads one server after a change (this replica's or another's). */
  async reload(name: string): Promise<void> {
    const row = await this.repository.findByName(name);
    await this.apply(name, row ? toServerRecord(row, this.cipher) : null);
  }

  /** Tells the other replicas to re-read the server. */
  async announce(
    actor: ActorContext | null,
    name: string,
    change: 'created' | 'updated' | 'deleted' | 'tools_listed',
  ): Promise<void> {
    await announce(this.bus, this.log, {
      channel: Channel.Tools,
      event_type: 'tool_server.changed',
      payload: { name, actor: actor?.username ?? 'system', change },
    });
  }

  health(name: string): LinkHealth {
    return this.links.get(name)?.health() ?? { ...DOWN };
  }

  /** The replica whose connections {@link health} describes. */
  get replica(): string {
    return this.identity.owner;
  }

  /** Connects (starting the server when needed), lists its tools, stores and announces them. */
  async discover(name: string): Promise<ListedTool[]> {
    const link = this.linkOf(name);
    const tools = await link.listTools();
    await this.repository.saveTools(name, tools, new Date());
    await this.reload(name);
    await this.announce(null, name, 'tools_listed');
    return tools;
  }

  /** The current tools of every server (the invoker's source). */
  tools(): readonly AgentTool[] {
    return this.offered;
  }

  private readonly offerFilter: ToolOfferFilter = {
    name: 'tool_servers.allowlist',
    offer: (tools: readonly string[], agent: ToolOfferAgent): readonly string[] =>
      tools.filter((tool) => {
        if (!isMcpToolName(tool)) {
          return true;
        }
        const record = this.records.get(tool.slice(0, tool.indexOf(MCP_TOOL_SEPARATOR)));
        return record !== undefined && serverAllows(record.allowlist, agent);
      }),
  };

  private readonly allowlistCheck: ToolSecurityCheck = {
    name: 'tool_servers.allowlist',
    check: async (call: ToolCallInfo, ctx: ToolContext): Promise<ToolSecurityVerdict> => {
      if (!isMcpToolName(call.tool)) {
        return { decision: 'allow' };
      }
      const server = call.tool.slice(0, call.tool.indexOf(MCP_TOOL_SEPARATOR));
      const record = this.records.get(server);
      const agent = await this.roster.findByRef(ctx.agentId);
      if (!record || !agent || !serverAllows(record.allowlist, agent)) {
        return { decision: 'deny', reason: `tool server ${server} is not allowed for agent ${ctx.agentName}` };
      }
      return { decision: 'allow' };
    },
  };

  private linkOf(name: string): ServerLink {
    const known = this.links.get(name);
    if (known) {
      return known;
    }
    const record = this.records.get(name);
    if (!record) {
      throw new NotFoundError(`tool server "${name}" not found`, ErrorCode.ToolServerNotFound);
    }
    const link = new ServerLink(record, this.fetcher, this.log, this.linkOptions);
    this.links.set(name, link);
    return link;
  }

  private async apply(name: string, record: ToolServerRecord | null): Promise<void> {
    const link = this.links.get(name);
    if (record === null) {
      this.records.delete(name);
    } else {
      this.records.set(name, record);
    }
    // A new destination or new secrets start a new connection; a listing or allowlist edit keeps it.
    if (link && (record === null || connectionOf(link.record) !== connectionOf(record))) {
      this.links.delete(name);
      await link.stop();
      this.log.info({ server: name, removed: record === null }, 'tools.server.stopped');
    }
    this.offered = [...this.records.values()].flatMap((r) => this.toolsOf(r));
  }

  private toolsOf(record: ToolServerRecord): AgentTool[] {
    return record.tools.flatMap((tool): AgentTool[] => {
      const name = mcpToolName(record.name, tool.name);
      if (name === null) {
        return [];
      }
      const { action } = deriveToolAction(record.toolActions[tool.name], tool.annotations);
      // Some model APIs refuse a `$schema` key inside a tool's parameters.
      const { $schema: _dialect, ...parameters } = tool.inputSchema;
      return [
        {
          definition: {
            name,
            description: `[${record.name}] ${tool.description}`.slice(0, 1_024),
            parameters,
          },
          schema: OBJECT_ARGUMENTS,
          // A server's tools never touch the task's worktree.
          access: 'read',
          security: { category: 'mcp', action },
          execute: (args: Record<string, unknown>, ctx: ToolContext) => this.call(record.name, tool.name, args, ctx),
        },
      ];
    });
  }

  /**
   * Counts the call against the run's cap, or refuses it. A run's calls are those it recorded as tool
   * invocations since it claimed the task (its parts before a park, on any replica), read once per
   * run part, plus those this part made here: the cap holds wherever the run goes on.
   */
  private async admit(ctx: ToolContext): Promise<void> {
    const cap = this.settings.value<number>('security', 'tool_server_max_calls_per_run');
    let calls = ctx.signal ? this.runCalls.get(ctx.signal) : undefined;
    if (!calls) {
      calls = { before: this.repository.serverCallsOfRun(ctx.taskId), made: 0 };
      if (ctx.signal) {
        this.runCalls.set(ctx.signal, calls);
      }
    }
    let before: number;
    try {
      before = await calls.before;
    } catch (error) {
      if (ctx.signal) {
        this.runCalls.delete(ctx.signal);
      }
      throw new ToolError(
        `tool server calls refused: the run's calls could not be counted [${ErrorCode.ToolServerCallFailed}]: ${
          error instanceof Error ? error.message : String(error)
        }`,
      );
    }
    if (before + calls.made >= cap) {
      throw new ToolError(
        `tool server calls refused: this run made its ${cap} calls [${ErrorCode.ToolServerCallFailed}]`,
      );
    }
    calls.made += 1;
  }

  /**
   * A cost the server reported is charged like a model call's: a cost record (category `productive`,
   * provider `mcp:<server>`, model the tool's name, no tokens) against the run's task and agent, so
   * the task, department, daily and monthly limits count it. A record that cannot be written is logged.
   */
  private async charge(server: string, tool: string, costUsd: number, ctx: ToolContext): Promise<void> {
    this.log.info({ server, tool, task_id: ctx.taskId, cost_usd: costUsd }, 'tools.server.cost_reported');
    try {
      await this.spend.record(
        {
          id: randomUUID(),
          agentId: ctx.agentId,
          taskId: ctx.taskId,
          provider: `${MCP_COST_PROVIDER_PREFIX}${server}`,
          model: tool.slice(0, 200),
          inputTokens: 0,
          outputTokens: 0,
          costUsd,
          callCategory: 'productive',
          timestamp: new Date(),
        },
        null,
      );
    } catch (error) {
      this.log.error({ err: error, server, tool, task_id: ctx.taskId }, 'tools.server.cost_not_recorded');
    }
  }

  private async call(server: string, tool: string, args: Record<string, unknown>, ctx: ToolContext): Promise<string> {
    await this.admit(ctx);
    const timeoutMs = this.settings.value<number>('security', 'tool_server_call_timeout_seconds') * 1000;
    let result;
    try {
      result = await this.linkOf(server).call(tool, args, timeoutMs, ctx.signal);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.log.warn({ server, tool, task_id: ctx.taskId, err: reason }, 'tools.server.call_failed');
      throw new ToolError(`tool server ${server} failed [${ErrorCode.ToolServerCallFailed}]: ${reason.slice(0, 500)}`);
    }
    if (result.costUsd !== null && result.costUsd > 0) {
      await this.charge(server, tool, result.costUsd, ctx);
    }
    const max = this.settings.value<number>('security', 'tool_server_max_result_chars');
    const text =
      result.text.length > max
        ? `${result.text.slice(0, max)}\n[result cut: first ${max} of ${result.text.length} characters]`
        : result.text;
    if (result.isError) {
      throw new ToolError(`tool ${server}${MCP_TOOL_SEPARATOR}${tool} reported an error: ${text}`);
    }
    return text;
  }
}

/** What a connection depends on: a change of any of it stops the running server. */
function connectionOf(record: ToolServerRecord): string {
  return JSON.stringify([
    record.transport,
    record.command,
    record.args,
    record.url,
    record.authHeaderName,
    record.secrets,
  ]);
}
