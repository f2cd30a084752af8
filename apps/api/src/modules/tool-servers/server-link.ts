import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Logger } from 'pino';

import { type McpToolAnnotations, redactKnownSecrets, restartDelayMs } from '@app/domain';
import type { SpawnHelper } from '@app/platform';

import type { GuardedFetcher } from '../providers';
import { ProcessGroupTransport } from './process-group-transport';
import { type ListedTool, secretValues, type ToolServerRecord } from './tool-server-record';

/** How long connecting (start, handshake) may take. */
export const CONNECT_TIMEOUT_MS = 15_000;
/** Restarts in a row after crashes before the server waits for its next use. */
const MAX_BACKGROUND_RESTARTS = 8;
/** The longest an idle check waits before it reads the idle setting again. */
const IDLE_RECHECK_MS = 30_000;
/** Pages of a tool listing read at most. */
const MAX_LIST_PAGES = 20;
const CLIENT_INFO = { name: 'synthorg', version: '1' };

/** A server's health on this replica, as its resource shows it. */
export interface LinkHealth {
  connected: boolean;
  lastError: string | null;
  restarts: number;
  pid: number | null;
}

/** What a link reads from the settings each time it needs it. */
export interface LinkOptions {
  /** How long a stdio server may sit unused before its process is stopped (restarted on next use). */
  idleMs: () => number;
  /** The spawn helper that starts stdio servers (the process's own by default); null: this process. */
  helper?: SpawnHelper | null;
}

/** What a call returned, flattened to the text the model reads. */
export interface LinkCallResult {
  text: string;
  isError: boolean;
  /** A cost the server reported in the result's `_meta.cost_usd` (see {@link reportedCost}), if any. */
  costUsd: number | null;
}

/**
 * This replica's connection to one tool server: started on first use, kept while it is used,
 * restarted with backoff after a crash (a stdio server), stopped on removal and on shutdown. A stdio
 * server left unused for the idle time is stopped too, and started again by its next use. Calls
 * arriving while a restart is due wait for it.
 */
export class ServerLink {
  private client: Client | null = null;
  private transport: Transport | null = null;
  private connecting: Promise<Client> | null = null;
  private restartTimer: NodeJS.Timeout | null = null;
  private restartDue: Promise<void> | null = null;
  private crashesInRow = 0;
  private stopped = false;
  /** Listings and calls under way: a server is never stopped for idleness while one is. */
  private inFlight = 0;
  private lastUsed = 0;
  private idleTimer: NodeJS.Timeout | null = null;
  private readonly state: LinkHealth = { connected: false, lastError: null, restarts: 0, pid: null };

  constructor(
    readonly record: ToolServerRecord,
    private readonly fetcher: GuardedFetcher,
    private readonly log: Logger,
    private readonly options: LinkOptions,
  ) {}

  health(): LinkHealth {
    return { ...this.state };
  }

  /** Connects when needed and lists the server's tools. */
  listTools(timeoutMs = CONNECT_TIMEOUT_MS): Promise<ListedTool[]> {
    return this.using(() => this.list(timeoutMs));
  }

  private async list(timeoutMs: number): Promise<ListedTool[]> {
    const client = await this.connected();
    const tools: ListedTool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_LIST_PAGES; page += 1) {
      const listed = await client.listTools(cursor ? { cursor } : {}, { timeout: timeoutMs });
      for (const tool of listed.tools) {
        tools.push({
          name: tool.name,
          description: (tool.description ?? tool.title ?? '').slice(0, 1_024),
          inputSchema: tool.inputSchema,
          annotations: annotationsOf(tool.annotations),
        });
      }
      cursor = listed.nextCursor;
      if (!cursor) {
        break;
      }
    }
    return tools;
  }

  /** Calls a tool; a failure (down, crash, timeout, protocol error) throws with the reason. */
  call(tool: string, args: Record<string, unknown>, timeoutMs: number, signal?: AbortSignal): Promise<LinkCallResult> {
    return this.using(() => this.callOnce(tool, args, timeoutMs, signal));
  }

  private async callOnce(
    tool: string,
    args: Record<string, unknown>,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<LinkCallResult> {
    const client = await this.connected();
    const result = await client.callTool({ name: tool, arguments: args }, undefined, {
      timeout: timeoutMs,
      ...(signal ? { signal } : {}),
    });
    this.crashesInRow = 0;
    return {
      text: resultText(result),
      isError: result.isError === true,
      costUsd: reportedCost(result._meta),
    };
  }

  /** Stops the server for good (removal, change, shutdown): its process group is killed. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.restartTimer) {
      clearTimeout(this.restartTimer);
      this.restartTimer = null;
    }
    this.clearIdleTimer();
    const client = this.client;
    const transport = this.transport;
    this.client = null;
    this.transport = null;
    this.state.connected = false;
    this.state.pid = null;
    await client?.close().catch(() => undefined);
    await transport?.close().catch(() => undefined);
  }

  /** Runs a listing or a call as a use of the server: it is not stopped for idleness meanwhile. */
  private async using<T>(work: () => Promise<T>): Promise<T> {
    this.inFlight += 1;
    this.clearIdleTimer();
    try {
      return await work();
    } finally {
      this.inFlight -= 1;
      this.lastUsed = Date.now();
      this.armIdleTimer();
    }
  }

  private clearIdleTimer(): void {
    if (this.idleTimer) {
      clearTimeout(this.idleTimer);
      this.idleTimer = null;
    }
  }

  /** A stdio server idle for the configured time is stopped; HTTP connections hold no process. */
  private armIdleTimer(delayMs = this.options.idleMs()): void {
    if (this.record.transport !== 'stdio' || this.stopped || this.inFlight > 0 || this.idleTimer) {
      return;
    }
    // Looked at again at least every half minute, so a shorter idle setting applies soon.
    this.idleTimer = setTimeout(
      () => {
        this.idleTimer = null;
        const left = this.options.idleMs() - (Date.now() - this.lastUsed);
        if (left > 0) {
          this.armIdleTimer(left);
          return;
        }
        void this.stopIdle();
      },
      Math.min(delayMs, IDLE_RECHECK_MS),
    );
    this.idleTimer.unref();
  }

  /** Stops an idle server's process; the link stays, and the next use starts the server again. */
  private async stopIdle(): Promise<void> {
    const client = this.client;
    const transport = this.transport;
    if (this.inFlight > 0 || this.stopped || client === null) {
      return;
    }
    // Cleared first: the transport's close is then not taken for a crash.
    this.client = null;
    this.transport = null;
    this.state.connected = false;
    this.log.info({ server: this.record.name, pid: this.state.pid }, 'tools.server.idle_stopped');
    this.state.pid = null;
    this.crashesInRow = 0;
    await client.close().catch(() => undefined);
    await transport?.close().catch(() => undefined);
  }

  private async connected(): Promise<Client> {
    if (this.stopped) {
      throw new Error(`tool server ${this.record.name} was removed or changed`);
    }
    if (this.client) {
      return this.client;
    }
    // A restart due within the call's wait is awaited rather than raced.
    if (this.restartDue) {
      await this.restartDue;
      if (this.client) {
        return this.client;
      }
    }
    return this.connectOnce();
  }

  // Concurrent callers share one attempt.
  private connectOnce(): Promise<Client> {
    this.connecting ??= this.connect().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  private async connect(): Promise<Client> {
    const transport = this.transportFor();
    const client = new Client(CLIENT_INFO, { capabilities: {} });
    let ready = false;
    transport.onclose = () => {
      if (ready) {
        this.closed(client);
      }
    };
    try {
      await client.connect(transport, { timeout: CONNECT_TIMEOUT_MS });
    } catch (error) {
      await transport.close().catch(() => undefined);
      this.state.lastError = this.redact(describe(error));
      this.state.connected = false;
      throw new Error(`tool server ${this.record.name} could not be started: ${this.state.lastError}`, {
        cause: error,
      });
    }
    if (this.stopped) {
      await client.close().catch(() => undefined);
      throw new Error(`tool server ${this.record.name} was removed or changed`);
    }
    ready = true;
    this.client = client;
    this.transport = transport;
    this.state.connected = true;
    this.state.pid = transport instanceof ProcessGroupTransport ? (transport.pid ?? null) : null;
    this.log.info({ server: this.record.name, pid: this.state.pid }, 'tools.server.connected');
    // A server started without a use (a restart after a crash) idles from now.
    this.lastUsed = Date.now();
    this.armIdleTimer();
    return client;
  }

  private transportFor(): Transport {
    const record = this.record;
    if (record.transport === 'stdio') {
      const secrets = secretValues(record);
      return new ProcessGroupTransport({
        command: record.command ?? '',
        args: record.args,
        env: record.secrets.env,
        ...(this.options.helper === undefined ? {} : { helper: this.options.helper }),
        onStderr: (line) =>
          this.log.info({ server: record.name, line: redactKnownSecrets(line, secrets) }, 'tools.server.stderr'),
      });
    }
    const headers: Record<string, string> =
      record.authHeaderName && record.secrets.auth ? { [record.authHeaderName]: record.secrets.auth } : {};
    return new StreamableHTTPClientTransport(new URL(record.url ?? ''), {
      fetch: this.fetcher.fetch,
      requestInit: { headers },
      // Same-origin hops only; each goes through the guarded fetch again. Another origin is refused.
      redirectPolicy: 'same-origin',
    });
  }

  /** The transport closed by itself: a stdio server's exit is a crash, restarted with backoff. */
  private closed(client: Client): void {
    if (this.client !== client) {
      return;
    }
    this.client = null;
    this.transport = null;
    this.state.connected = false;
    this.state.pid = null;
    if (this.stopped) {
      return;
    }
    this.state.lastError ??= 'the server closed the connection';
    if (this.record.transport !== 'stdio') {
      return;
    }
    this.state.lastError = 'the server process exited';
    this.crashesInRow += 1;
    this.log.warn({ server: this.record.name, crashes_in_row: this.crashesInRow }, 'tools.server.exited');
    if (this.crashesInRow > MAX_BACKGROUND_RESTARTS) {
      return;
    }
    const delay = restartDelayMs(this.crashesInRow);
    this.restartDue = new Promise<void>((resolve) => {
      this.restartTimer = setTimeout(() => {
        this.restartTimer = null;
        this.state.restarts += 1;
        this.connectOnce()
          .catch((error: unknown) =>
            this.log.warn({ server: this.record.name, err: error }, 'tools.server.restart_failed'),
          )
          .finally(() => {
            this.restartDue = null;
            resolve();
          });
      }, delay);
      this.restartTimer.unref();
    });
  }

  private redact(text: string): string {
    return redactKnownSecrets(text, secretValues(this.record)).slice(0, 500);
  }
}

function annotationsOf(value: unknown): McpToolAnnotations {
  const raw = (value ?? {}) as Record<string, unknown>;
  const out: McpToolAnnotations = {};
  for (const key of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) {
    if (typeof raw[key] === 'boolean') {
      out[key] = raw[key];
    }
  }
  return out;
}

/** The text parts of a result, and a note for each part of another kind; structured content as JSON. */
function resultText(result: Record<string, unknown>): string {
  const content = Array.isArray(result.content) ? (result.content as Array<Record<string, unknown>>) : [];
  const parts = content.map((part) => {
    if (part.type === 'text' && typeof part.text === 'string') {
      return part.text;
    }
    if (part.type === 'resource' && typeof (part.resource as { text?: unknown } | undefined)?.text === 'string') {
      return (part.resource as { text: string }).text;
    }
    return `[${String(part.type)} content omitted]`;
  });
  if (parts.length === 0 && result.structuredContent !== undefined) {
    parts.push(JSON.stringify(result.structuredContent));
  }
  return parts.join('\n');
}

/**
 * The cost a server reports for a call: `_meta.cost_usd` of the result, a finite number >= 0 in the
 * configured currency (the field keeps the cost records' name). Anything else reports nothing.
 */
function reportedCost(meta: unknown): number | null {
  const cost = (meta as { cost_usd?: unknown } | undefined)?.cost_usd;
  return typeof cost === 'number' && Number.isFinite(cost) && cost >= 0 ? cost : null;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
