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
  SecretCipher,
  subscribeTo,
} from '@app/platform';

import { AgentRoster } from '../agents';
import { ToolInvoker } from '../engine';
import { DiscoveryPolicyService, GuardedFetcher } from '../providers';
import { SettingsSnapshot } from '../settings';
import { type LinkHealth, ServerLink } from './server-link';
import { type ListedTool, type ToolServerRecord, toServerRecord } from './tool-server-record';
import { ToolServersRepository } from './tool-servers.repository';

const START_RETRY_MS = 5_000;
const DOWN: LinkHealth = { connected: false, lastError: null, restarts: 0, pid: null };

/** Any object: the server validates its own arguments against the schema it published. */
const OBJECT_ARGUMENTS: ToolArgumentSchema<Record<string, unknown>> = {
  safeParse: (value) =>
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? { success: true, data: value as Record<string, unknown> }
      : { success: false, error: { issues: [{ path: [], message: 'expected an object' }] } },
};

/**
 * This replica's tool servers: their configurations (re-read when any replica announces a change),
 * their connections (started on first use, stopped on change, removal and shutdown), and the engine
 * hooks that offer their tools to allowed agents (`server__tool`), refuse calls from anyone else and
 * cap the calls of a run.
 */
@Injectable()
export class ToolServerLinks implements OnModuleInit, OnModuleDestroy, ToolSource {
  readonly name = 'tool_servers';
  private records = new Map<string, ToolServerRecord>();
  private offered: AgentTool[] = [];
  private readonly links = new Map<string, ServerLink>();
  /** Server calls per task while its run goes on (reset when the task leaves in_progress). */
  private readonly callsPerRun = new Map<string, number>();
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
    policy: DiscoveryPolicyService,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('tools.servers');
    this.fetcher = new GuardedFetcher(() => policy.policy(), { followRedirects: false });
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
      subscribeTo(this.bus, Channel.Tasks, (event) => {
        if (event.event_type === 'task.status_changed' && event.payload.status !== 'in_progress') {
          this.callsPerRun.delete(event.payload.task_id);
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
      await this.reloadAll();
    } catch (error) {
      this.log.warn({ err: error, retry_in_ms: START_RETRY_MS }, 'tools.servers.load_deferred');
      this.retryTimer = setTimeout(() => void this.start(), START_RETRY_MS);
      this.retryTimer.unref();
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
    const link = new ServerLink(record, this.fetcher, this.log);
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

  private async call(server: string, tool: string, args: Record<string, unknown>, ctx: ToolContext): Promise<string> {
    const cap = this.settings.value<number>('security', 'tool_server_max_calls_per_run');
    const made = this.callsPerRun.get(ctx.taskId) ?? 0;
    if (made >= cap) {
      throw new ToolError(
        `tool server calls refused: this run made its ${cap} calls [${ErrorCode.ToolServerCallFailed}]`,
      );
    }
    this.callsPerRun.set(ctx.taskId, made + 1);
    const timeoutMs = this.settings.value<number>('security', 'tool_server_call_timeout_seconds') * 1000;
    let result;
    try {
      result = await this.linkOf(server).call(tool, args, timeoutMs, ctx.signal);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.log.warn({ server, tool, task_id: ctx.taskId, err: reason }, 'tools.server.call_failed');
      throw new ToolError(`tool server ${server} failed [${ErrorCode.ToolServerCallFailed}]: ${reason.slice(0, 500)}`);
    }
    if (result.costUsd !== null) {
      this.log.info({ server, tool, task_id: ctx.taskId, cost_usd: result.costUsd }, 'tools.server.cost_reported');
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
