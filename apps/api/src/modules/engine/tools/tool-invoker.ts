import {
  type AgentTool,
  type ToolArgumentIssue,
  type ToolCallInfo,
  type ToolCallObserver,
  type ToolContext,
  type ToolDefinition,
  type ToolOfferAgent,
  type ToolOfferFilter,
  type ToolEscalation,
  ToolError,
  type ToolOutputScanner,
  type ToolOutputVerdict,
  type ToolResult,
  type ToolSecurityCheck,
  type ToolSource,
} from '@app/domain';
import { withSpan } from '@app/platform';

export const DEFAULT_TOOL_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_OUTPUT_CHARS = 16_000;
// Leaves room for the truncation marker inside the limit.
const MIN_OUTPUT_CHARS = 200;

export interface ToolInvokerOptions {
  tools: AgentTool[];
  securityChecks?: ToolSecurityCheck[];
  observers?: ToolCallObserver[];
  outputScanners?: ToolOutputScanner[];
  timeoutMs?: number;
  maxOutputChars?: number;
  /** Told of every call's verdict (metrics); `tool` is null for a name no tool has. */
  onInvoked?: (tool: string | null, verdict: ToolVerdict, durationMs: number) => void;
}

/**
 * What became of a call: refused before it ran (unknown tool, not allowed for the agent, invalid
 * arguments, denied or escalated by a security check), or ran and succeeded, failed, or had its
 * output withheld by a scanner.
 */
export type ToolVerdict =
  'unknown_tool' | 'not_allowed' | 'invalid_arguments' | 'denied' | 'escalated' | 'succeeded' | 'failed' | 'withheld';

type Verdicted = ToolResult & { escalation?: ToolEscalation; verdict: ToolVerdict };

export interface ToolInvocation {
  name: string;
  arguments: Record<string, unknown>;
}

/** `escalation` is set when a security check handed the call to a person: it did not execute. */
export type ToolInvocationResult = ToolResult & { tool: string; durationMs: number; escalation?: ToolEscalation };

/** How a call is invoked: `approved` when a person approved its escalation (escalations then pass). */
export interface InvokeOptions {
  approved?: boolean;
}

type Refusal = { reason: string; escalated: boolean; escalation?: ToolEscalation };

/**
 * The single path from a model's tool call to a tool: lookup, permission, validation, security
 * checks, execution under a timeout (beside the observers of allowed calls), output scanning and
 * truncation. It never throws: every failure becomes an error result the model can read and react to.
 */
export class ToolInvoker {
  private readonly tools = new Map<string, AgentTool>();
  private readonly securityChecks: ToolSecurityCheck[];
  private readonly observers: ToolCallObserver[];
  private readonly outputScanners: ToolOutputScanner[];
  private readonly offerFilters: ToolOfferFilter[] = [];
  private readonly sources: ToolSource[] = [];
  private readonly timeoutMs: number;
  private readonly maxOutputChars: number;
  private readonly onInvoked: ToolInvokerOptions['onInvoked'];

  constructor(options: ToolInvokerOptions) {
    for (const tool of options.tools) {
      if (this.tools.has(tool.definition.name)) {
        throw new Error(`duplicate tool name: ${tool.definition.name}`);
      }
      this.tools.set(tool.definition.name, tool);
    }
    this.securityChecks = [...(options.securityChecks ?? [])];
    this.observers = [...(options.observers ?? [])];
    this.outputScanners = [...(options.outputScanners ?? [])];
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
    this.maxOutputChars = Math.max(MIN_OUTPUT_CHARS, options.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS);
    this.onInvoked = options.onInvoked;
  }

  /** Adds a tool another module provides (the security module's run_command, messaging); its name must be new. */
  registerTool(tool: AgentTool): void {
    if (this.tools.has(tool.definition.name)) {
      throw new Error(`duplicate tool name: ${tool.definition.name}`);
    }
    this.tools.set(tool.definition.name, tool);
  }

  /**
   * Adds tools that come and go at runtime (a tool server's). Their names never shadow a registered
   * tool: on a clash the registered one wins and the source's is not offered.
   */
  registerToolSource(source: ToolSource): void {
    this.sources.push(source);
  }

  /** Adds a check run before every tool call, after those registered earlier. */
  registerSecurityCheck(check: ToolSecurityCheck): void {
    this.securityChecks.push(check);
  }

  /** Adds an observer of every call the checks let through (see ToolCallObserver). */
  registerObserver(observer: ToolCallObserver): void {
    this.observers.push(observer);
  }

  /** Adds a scanner run on every tool result, after those registered earlier. */
  registerOutputScanner(scanner: ToolOutputScanner): void {
    this.outputScanners.push(scanner);
  }

  /** Adds a filter of the tools offered to an agent's model, applied after those registered earlier. */
  registerOfferFilter(filter: ToolOfferFilter): void {
    this.offerFilters.push(filter);
  }

  /**
   * The tools of `names` the agent is offered. A filter that throws offers nothing (fail closed): the
   * run then goes on without tools rather than with tools the agent may not have.
   */
  offeredTo(names: readonly string[], agent: ToolOfferAgent): string[] {
    let offered = [...names];
    for (const filter of this.offerFilters) {
      try {
        const kept = new Set(filter.offer(offered, agent));
        offered = offered.filter((name) => kept.has(name));
      } catch {
        return [];
      }
    }
    return offered;
  }

  /** Definitions to offer the model; only the allowed tools when a list is given. */
  definitions(allowed?: readonly string[]): ToolDefinition[] {
    return this.all()
      .filter((tool) => allowed === undefined || allowed.includes(tool.definition.name))
      .map((tool) => tool.definition);
  }

  /** True when the tool exists and declares itself read-only; unknown tools count as writers. */
  readsOnly(name: string): boolean {
    return this.lookup(name)?.access === 'read';
  }

  /** Every tool: the registered ones, then the sources' current ones under names still free. */
  private all(): AgentTool[] {
    const tools = [...this.tools.values()];
    if (this.sources.length === 0) {
      return tools;
    }
    const seen = new Set(this.tools.keys());
    for (const tool of this.sourced()) {
      if (!seen.has(tool.definition.name)) {
        seen.add(tool.definition.name);
        tools.push(tool);
      }
    }
    return tools;
  }

  private lookup(name: string): AgentTool | undefined {
    return this.tools.get(name) ?? this.sourced().find((tool) => tool.definition.name === name);
  }

  // A source that throws offers nothing: its tools are absent rather than the run failing.
  private sourced(): AgentTool[] {
    return this.sources.flatMap((source) => {
      try {
        return [...source.tools()];
      } catch {
        return [];
      }
    });
  }

  async invoke(
    call: ToolInvocation,
    ctx: ToolContext,
    allowed?: readonly string[],
    options: InvokeOptions = {},
  ): Promise<ToolInvocationResult> {
    const started = performance.now();
    const result = await withSpan(`tool ${call.name}`, { 'gen_ai.tool.name': call.name }, async (span) => {
      const outcome = await this.run(call, ctx, allowed, options);
      span?.setAttribute('synthorg.tool.verdict', outcome.verdict);
      return outcome;
    });
    const durationMs = Math.round(performance.now() - started);
    this.onInvoked?.(this.tools.has(call.name) ? call.name : null, result.verdict, durationMs);
    return {
      content: this.truncate(result.content),
      isError: result.isError,
      tool: call.name,
      durationMs,
      ...(result.escalation ? { escalation: result.escalation } : {}),
    };
  }

  private async run(
    call: ToolInvocation,
    ctx: ToolContext,
    allowed: readonly string[] | undefined,
    options: InvokeOptions,
  ): Promise<Verdicted> {
    const tool = this.lookup(call.name);
    if (!tool) {
      return { ...failure(`unknown tool: ${call.name}`), verdict: 'unknown_tool' };
    }
    if (allowed !== undefined && !allowed.includes(call.name)) {
      return { ...failure(`tool not allowed for this agent: ${call.name}`), verdict: 'not_allowed' };
    }
    // Some models send null instead of {} for a tool without arguments.
    const parsed = tool.schema.safeParse(call.arguments ?? {});
    if (!parsed.success) {
      return {
        ...failure(`invalid arguments for ${call.name}: ${describeIssues(parsed.error.issues)}`),
        verdict: 'invalid_arguments',
      };
    }
    // Checks judge the validated arguments (defaults applied, values normalised): exactly what will run.
    const checked = isRecord(parsed.data) ? parsed.data : call.arguments;
    const profile = tool.security;
    const denial = await this.deniedBy(
      { tool: call.name, arguments: checked, profile },
      ctx,
      options.approved === true,
    );
    if (denial !== null) {
      // An escalated call is refused unless the engine parks the run on it (it reads `escalation`).
      const refused = failure(
        `denied by security policy: ${denial.escalated ? 'needs approval: ' : ''}${denial.reason}`,
      );
      return denial.escalated
        ? { ...refused, escalation: denial.escalation ?? { reason: denial.reason }, verdict: 'escalated' }
        : { ...refused, verdict: 'denied' };
    }
    // Observers write while the tool runs, rather than on its path; the answer waits for them.
    const info: ToolCallInfo = { tool: call.name, arguments: checked, ...(profile ? { profile } : {}) };
    const observed = Promise.allSettled(
      this.observers.map((observer) => new Promise<void>((done) => done(observer.observe(info, ctx)))),
    );
    try {
      const executed = await this.execute(tool, parsed.data, ctx);
      const scanned = await this.scan(executed, { tool: call.name, ...(profile ? { profile } : {}) }, ctx);
      const verdict: ToolVerdict = scanned.withheld ? 'withheld' : scanned.isError ? 'failed' : 'succeeded';
      return { content: scanned.content, isError: scanned.isError, verdict };
    } finally {
      await observed;
    }
  }

  // A check that throws denies the call: a broken policy must not silently let everything through.
  // A person's approval answers escalations only: a check that denies still denies.
  private async deniedBy(call: ToolCallInfo, ctx: ToolContext, approved: boolean): Promise<Refusal | null> {
    const info: ToolCallInfo = call.profile ? call : { tool: call.tool, arguments: call.arguments };
    for (const check of this.securityChecks) {
      try {
        const verdict = await check.check(info, ctx);
        switch (verdict.decision) {
          case 'allow':
            break;
          case 'deny':
            return { reason: verdict.reason, escalated: false };
          case 'escalate':
            if (!approved) {
              const { decision: _decision, ...escalation } = verdict;
              return { reason: verdict.reason, escalated: true, escalation };
            }
            break;
        }
      } catch {
        return { reason: `security check ${check.name} failed`, escalated: false };
      }
    }
    return null;
  }

  // The race settles on the first of: the tool's own result, the timeout, or the caller's abort
  // (shutdown). Tools receive the combined signal so they can stop work the result no longer needs.
  private async execute(tool: AgentTool, args: unknown, ctx: ToolContext): Promise<ToolResult> {
    const name = tool.definition.name;
    if (ctx.signal?.aborted) {
      return failure(`tool ${name} was cancelled`);
    }
    const controller = new AbortController();
    const signal = ctx.signal ? AbortSignal.any([ctx.signal, controller.signal]) : controller.signal;
    const timer = setTimeout(() => {
      controller.abort(new ToolError(`tool ${name} timed out after ${this.timeoutMs} ms`));
    }, this.timeoutMs);
    const stopped = new Promise<ToolResult>((resolve) => {
      signal.addEventListener('abort', () => resolve(failure(describeAbort(name, signal.reason))), { once: true });
    });
    try {
      const running = tool.execute(args, { ...ctx, signal }).then(
        (content): ToolResult => ({ content, isError: false }),
        (error: unknown): ToolResult => failure(describeFailure(name, error)),
      );
      return await Promise.race([running, stopped]);
    } finally {
      clearTimeout(timer);
    }
  }

  // Scanners see error text too: a failure message can quote file contents just like an output.
  private async scan(
    result: ToolResult,
    call: Parameters<ToolOutputScanner['scan']>[1],
    ctx: ToolContext,
  ): Promise<ToolResult & { withheld?: boolean }> {
    let output = result.content;
    for (const scanner of this.outputScanners) {
      let verdict: ToolOutputVerdict;
      try {
        verdict = await scanner.scan(output, call, ctx);
      } catch {
        return { ...failure('output withheld: scanner failed'), withheld: true };
      }
      if (verdict.action === 'block') {
        return { ...failure(`output withheld: ${verdict.reason}`), withheld: true };
      }
      if (verdict.action === 'redact') {
        output = verdict.output;
      }
    }
    return { content: output, isError: result.isError };
  }

  private truncate(content: string): string {
    if (content.length <= this.maxOutputChars) {
      return content;
    }
    const marker = (kept: number): string =>
      `\n[output truncated: first ${kept} of ${content.length} characters shown]`;
    // Sized with the limit itself as the count, so the real (never longer) marker keeps the total in bounds.
    let keep = this.maxOutputChars - marker(this.maxOutputChars).length;
    // Never cut a surrogate pair in half: the model would receive an invalid character.
    const code = content.charCodeAt(keep - 1);
    if (code >= 0xd800 && code <= 0xdbff) {
      keep -= 1;
    }
    return `${content.slice(0, keep)}${marker(keep)}`;
  }
}

function failure(content: string): ToolResult {
  return { content, isError: true };
}

function describeFailure(tool: string, error: unknown): string {
  if (error instanceof ToolError) {
    return error.message;
  }
  if (error instanceof Error && error.name === 'AbortError') {
    return `tool ${tool} was cancelled`;
  }
  return `tool ${tool} failed: ${error instanceof Error ? error.message : String(error)}`;
}

// Our own timeout aborts with a ToolError; any other reason is the caller cancelling the run.
function describeAbort(tool: string, reason: unknown): string {
  return reason instanceof ToolError ? reason.message : `tool ${tool} was cancelled`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describeIssues(issues: readonly ToolArgumentIssue[]): string {
  return issues
    .map((issue) => {
      const where = issue.path.length === 0 ? '(arguments)' : issue.path.map(String).join('.');
      return `${where}: ${issue.message}`;
    })
    .join('; ');
}
