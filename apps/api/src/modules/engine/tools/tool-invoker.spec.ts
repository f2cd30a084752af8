import {
  type AgentTool,
  type ToolCallObserver,
  type ToolContext,
  ToolError,
  type ToolOutputScanner,
  type ToolSecurityCheck,
} from '@app/domain';
import { z } from 'zod';

import { gate } from '@app/testing';

import { toolDefinition } from './builtin-tools';
import { ToolInvoker } from './tool-invoker';

const CTX: ToolContext = { root: '/workspace', taskId: 'task-1', agentId: 'agent-1', agentName: 'Ada' };

function fakeTool<A>(
  name: string,
  schema: z.ZodType<A>,
  execute: (args: A, ctx: ToolContext) => Promise<string>,
): AgentTool<A> {
  return { definition: toolDefinition(name, `The ${name} tool for tests.`, schema), schema, execute };
}

const echo = fakeTool('echo', z.strictObject({ text: z.string(), times: z.number().int().default(1) }), (args) =>
  Promise.resolve(args.text.repeat(args.times)),
);
const hang = fakeTool('hang', z.strictObject({}), () => new Promise<string>(() => undefined));
const recoverable = fakeTool('recoverable', z.strictObject({}), () => Promise.reject(new ToolError('file is missing')));
const crash = fakeTool('crash', z.strictObject({}), () => Promise.reject(new Error('disk on fire')));

function invoker(options: Partial<ConstructorParameters<typeof ToolInvoker>[0]> = {}): ToolInvoker {
  return new ToolInvoker({ tools: [echo, hang, recoverable, crash], ...options });
}

describe(ToolInvoker.name, () => {
  it('should run a valid call and apply schema defaults', async () => {
    const result = await invoker().invoke({ name: 'echo', arguments: { text: 'hi' } }, CTX);

    expect(result).toEqual({ content: 'hi', isError: false, tool: 'echo', durationMs: expect.any(Number) });
  });

  it('should offer and run a tool registered later, refusing a second tool of the same name', async () => {
    const tools = invoker();
    tools.registerTool(
      fakeTool('shout', z.strictObject({ text: z.string() }), (args) => Promise.resolve(args.text.toUpperCase())),
    );

    expect(tools.definitions().map((d) => d.name)).toContain('shout');
    await expect(tools.invoke({ name: 'shout', arguments: { text: 'hi' } }, CTX)).resolves.toMatchObject({
      content: 'HI',
    });
    expect(() => tools.registerTool(echo)).toThrow('duplicate tool name: echo');
  });

  it('should offer and run the current tools of a source, with their own security profile, never shadowing a registered one', async () => {
    const tools = invoker();
    let current: AgentTool[] = [];
    tools.registerToolSource({ name: 'servers', tools: () => current });
    const seen: unknown[] = [];
    tools.registerSecurityCheck({
      name: 'spy',
      check: (call) => {
        seen.push(call.profile);
        return Promise.resolve({ decision: 'allow' });
      },
    });
    expect(tools.definitions().map((d) => d.name)).not.toContain('srv__ping');
    const ping: AgentTool<{ n: number }> = {
      ...fakeTool('srv__ping', z.strictObject({ n: z.number() }), (args) => Promise.resolve(`pong ${args.n}`)),
      access: 'read',
      security: { category: 'mcp', action: 'code:read' },
    };
    current = [ping, { ...echo, execute: () => Promise.resolve('shadow') }];
    expect(
      tools
        .definitions()
        .map((d) => d.name)
        .filter((name) => name === 'echo'),
    ).toHaveLength(1);
    expect(tools.readsOnly('srv__ping')).toBe(true);
    await expect(tools.invoke({ name: 'srv__ping', arguments: { n: 2 } }, CTX)).resolves.toMatchObject({
      content: 'pong 2',
      isError: false,
    });
    await expect(tools.invoke({ name: 'echo', arguments: { text: 'a' } }, CTX)).resolves.toMatchObject({
      content: 'a',
    });
    expect(seen).toEqual([{ category: 'mcp', action: 'code:read' }, undefined]);
    current = [];
    await expect(tools.invoke({ name: 'srv__ping', arguments: { n: 1 } }, CTX)).resolves.toMatchObject({
      content: 'unknown tool: srv__ping',
    });
  });

  it('should offer nothing of a source that throws', () => {
    const tools = invoker();
    tools.registerToolSource({
      name: 'broken',
      tools: () => {
        throw new Error('catalogue lost');
      },
    });
    expect(tools.definitions().map((d) => d.name)).toEqual(['echo', 'hang', 'recoverable', 'crash']);
  });

  it('should report an unknown tool', async () => {
    await expect(invoker().invoke({ name: 'rm_rf', arguments: {} }, CTX)).resolves.toMatchObject({
      isError: true,
      content: 'unknown tool: rm_rf',
      tool: 'rm_rf',
    });
  });

  it('should refuse a tool outside the allowed list', async () => {
    const result = await invoker().invoke({ name: 'echo', arguments: { text: 'x' } }, CTX, ['hang']);

    expect(result).toMatchObject({ isError: true, content: 'tool not allowed for this agent: echo' });
  });

  it.each([
    [{}, 'text: '],
    [{ text: 1 }, 'text: '],
    [{ text: 'x', extra: true }, '(arguments): '],
    [{ text: 'x', times: 1.5 }, 'times: '],
  ])('should list argument errors with their paths for %j', async (args, fragment) => {
    const result = await invoker().invoke({ name: 'echo', arguments: args }, CTX);

    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/^invalid arguments for echo: /);
    expect(result.content).toContain(fragment);
  });

  it('should run security checks in order and stop at a denial', async () => {
    const seen: string[] = [];
    const allow: ToolSecurityCheck = {
      name: 'allow',
      check: (call) => {
        seen.push(`allow:${call.tool}`);
        return Promise.resolve({ decision: 'allow' });
      },
    };
    const deny: ToolSecurityCheck = {
      name: 'deny',
      check: () => Promise.resolve({ decision: 'deny', reason: 'writes are frozen' }),
    };
    const execute = jest.fn(() => Promise.resolve('ran'));
    const tools = [fakeTool('probe', z.strictObject({}), execute)];

    const allowed = await new ToolInvoker({ tools, securityChecks: [allow] }).invoke(
      { name: 'probe', arguments: {} },
      CTX,
    );
    const denied = await new ToolInvoker({ tools, securityChecks: [allow, deny] }).invoke(
      { name: 'probe', arguments: {} },
      CTX,
    );

    expect(allowed).toMatchObject({ isError: false, content: 'ran' });
    expect(denied).toMatchObject({ isError: true, content: 'denied by security policy: writes are frozen' });
    expect(execute).toHaveBeenCalledTimes(1);
    expect(seen).toEqual(['allow:probe', 'allow:probe']);
  });

  it('should show security checks the validated arguments with defaults applied', async () => {
    const check = jest.fn<ReturnType<ToolSecurityCheck['check']>, Parameters<ToolSecurityCheck['check']>>();
    check.mockResolvedValue({ decision: 'allow' });

    await invoker({ securityChecks: [{ name: 'spy', check }] }).invoke({ name: 'echo', arguments: { text: 'x' } }, CTX);

    expect(check).toHaveBeenCalledWith({ tool: 'echo', arguments: { text: 'x', times: 1 } }, CTX);
  });

  it('should deny the call when a security check throws', async () => {
    const sut = invoker();
    sut.registerSecurityCheck({ name: 'broken', check: () => Promise.reject(new Error('policy store down')) });

    const result = await sut.invoke({ name: 'echo', arguments: { text: 'x' } }, CTX);

    expect(result).toMatchObject({ isError: true, content: 'denied by security policy: security check broken failed' });
  });

  it('should run observers beside the tool, and answer only once they are done', async () => {
    const steps: string[] = [];
    const written = gate();
    const observer: ToolCallObserver = {
      name: 'bookkeeper',
      observe: async (call) => {
        steps.push(`observing ${call.tool} ${JSON.stringify(call.arguments)}`);
        await written.promise;
        steps.push('observed');
      },
    };
    const tool = fakeTool('work', z.strictObject({ n: z.number().default(2) }), () => {
      steps.push('executed');
      return Promise.resolve('done');
    });
    const tools = new ToolInvoker({ tools: [tool], observers: [observer] });

    const answer = tools.invoke({ name: 'work', arguments: {} }, CTX);
    await new Promise((resolve) => setImmediate(resolve));
    expect(steps).toEqual(['observing work {"n":2}', 'executed']);
    written.open();

    await expect(answer).resolves.toMatchObject({ content: 'done', isError: false });
    expect(steps).toEqual(['observing work {"n":2}', 'executed', 'observed']);
  });

  it('should show observers only the calls the checks let through, and ignore an observer that fails', async () => {
    const seen: string[] = [];
    const tools = new ToolInvoker({
      tools: [echo],
      securityChecks: [
        {
          name: 'no-secrets',
          check: (call) =>
            Promise.resolve(
              call.arguments.text === 'secret' ? { decision: 'deny', reason: 'no' } : { decision: 'allow' },
            ),
        },
      ],
    });
    tools.registerObserver({ name: 'broken', observe: () => Promise.reject(new Error('bookkeeping down')) });
    tools.registerObserver({
      name: 'throws at once',
      observe: () => {
        throw new Error('not even a promise');
      },
    });
    tools.registerObserver({
      name: 'recorder',
      observe: (call) => Promise.resolve(void seen.push(String(call.arguments.text))),
    });

    await expect(tools.invoke({ name: 'echo', arguments: { text: 'secret' } }, CTX)).resolves.toMatchObject({
      isError: true,
    });
    await expect(tools.invoke({ name: 'echo', arguments: { text: 'plain' } }, CTX)).resolves.toMatchObject({
      content: 'plain',
      isError: false,
    });
    expect(seen).toEqual(['plain']);
  });

  it('should time out a tool that never finishes and abort its signal', async () => {
    let signal: AbortSignal | undefined;
    const sut = new ToolInvoker({
      tools: [
        fakeTool('stuck', z.strictObject({}), (_args, ctx) => {
          signal = ctx.signal;
          return new Promise<string>(() => undefined);
        }),
      ],
      timeoutMs: 50,
    });

    const result = await sut.invoke({ name: 'stuck', arguments: {} }, CTX);

    expect(result).toMatchObject({ isError: true, content: 'tool stuck timed out after 50 ms' });
    expect(signal?.aborted).toBe(true);
  });

  it('should stop waiting when the caller aborts', async () => {
    const controller = new AbortController();
    const pending = invoker().invoke({ name: 'hang', arguments: {} }, { ...CTX, signal: controller.signal });
    controller.abort(new Error('shutting down'));

    await expect(pending).resolves.toMatchObject({ isError: true, content: 'tool hang was cancelled' });
    await expect(
      invoker().invoke({ name: 'echo', arguments: { text: 'x' } }, { ...CTX, signal: controller.signal }),
    ).resolves.toMatchObject({ isError: true, content: 'tool echo was cancelled' });
  });

  it('should turn a ToolError into its message and any other error into a failure result', async () => {
    const sut = invoker();

    await expect(sut.invoke({ name: 'recoverable', arguments: {} }, CTX)).resolves.toMatchObject({
      isError: true,
      content: 'file is missing',
    });
    await expect(sut.invoke({ name: 'crash', arguments: {} }, CTX)).resolves.toMatchObject({
      isError: true,
      content: 'tool crash failed: disk on fire',
    });
  });

  it('should pass output through scanners in order', async () => {
    const redact: ToolOutputScanner = {
      name: 'redact',
      scan: (output) => Promise.resolve({ action: 'redact', output: output.replace(/sk-\w+/g, '[REDACTED]') }),
    };
    const shout: ToolOutputScanner = {
      name: 'shout',
      scan: (output) => Promise.resolve({ action: 'redact', output: output.toUpperCase() }),
    };
    const sut = invoker({ outputScanners: [redact] });
    sut.registerOutputScanner(shout);

    const result = await sut.invoke({ name: 'echo', arguments: { text: 'key sk-abc123 ' } }, CTX);

    expect(result).toMatchObject({ isError: false, content: 'KEY [REDACTED] ' });
  });

  it('should not execute an escalated call and report the escalation, with the verdict classification, and its refusal', async () => {
    const sut = invoker();
    sut.registerSecurityCheck({
      name: 'risky',
      check: () =>
        Promise.resolve({
          decision: 'escalate',
          reason: 'deletes many files',
          actionType: 'code:delete',
          riskLevel: 'high',
        }),
    });

    const result = await sut.invoke({ name: 'echo', arguments: { text: 'x' } }, CTX);

    expect(result).toMatchObject({
      isError: true,
      content: 'denied by security policy: needs approval: deletes many files',
      escalation: { reason: 'deletes many files', actionType: 'code:delete', riskLevel: 'high' },
    });
  });

  it('should execute an approved escalated call but still refuse a denial when the call is approved', async () => {
    const sut = invoker();
    sut.registerSecurityCheck({
      name: 'risky',
      check: (call) =>
        Promise.resolve(
          call.arguments.text === 'deny'
            ? { decision: 'deny', reason: 'never' }
            : { decision: 'escalate', reason: 'deletes many files' },
        ),
    });

    const approved = await sut.invoke({ name: 'echo', arguments: { text: 'x' } }, CTX, undefined, { approved: true });
    const denied = await sut.invoke({ name: 'echo', arguments: { text: 'deny' } }, CTX, undefined, { approved: true });

    expect(approved).toMatchObject({ isError: false, content: 'x' });
    expect(approved.escalation).toBeUndefined();
    expect(denied).toMatchObject({ isError: true, content: 'denied by security policy: never' });
  });

  it('should pass output unchanged past a passing scanner and withhold what a scanner blocks', async () => {
    const pass: ToolOutputScanner = { name: 'pass', scan: () => Promise.resolve({ action: 'pass' }) };
    const block: ToolOutputScanner = {
      name: 'dlp',
      scan: (output) =>
        Promise.resolve(output.includes('secret') ? { action: 'block', reason: 'credentials' } : { action: 'pass' }),
    };
    const sut = invoker({ outputScanners: [pass, block] });

    const passed = await sut.invoke({ name: 'echo', arguments: { text: 'hello' } }, CTX);
    const blocked = await sut.invoke({ name: 'echo', arguments: { text: 'secret' } }, CTX);

    expect(passed).toMatchObject({ isError: false, content: 'hello' });
    expect(blocked).toMatchObject({ isError: true, content: 'output withheld: credentials' });
  });

  it('should withhold the output when a scanner throws', async () => {
    const sut = invoker({
      outputScanners: [{ name: 'dlp', scan: () => Promise.reject(new Error('classifier offline')) }],
    });

    const result = await sut.invoke({ name: 'echo', arguments: { text: 'secret' } }, CTX);

    expect(result).toMatchObject({ isError: true, content: 'output withheld: scanner failed' });
  });

  it('should truncate long output within the limit and mark it', async () => {
    const result = await invoker({ maxOutputChars: 300 }).invoke(
      { name: 'echo', arguments: { text: 'x', times: 1000 } },
      CTX,
    );

    expect(result.isError).toBe(false);
    expect(result.content.length).toBeLessThanOrEqual(300);
    expect(result.content).toMatch(/^x+\n\[output truncated: first \d+ of 1000 characters shown\]$/);
  });

  it('should offer every definition, or only the allowed ones', () => {
    const sut = invoker();

    expect(sut.definitions().map((definition) => definition.name)).toEqual(['echo', 'hang', 'recoverable', 'crash']);
    expect(sut.definitions(['crash', 'echo', 'nope']).map((definition) => definition.name)).toEqual(['echo', 'crash']);
  });

  it('should call a tool read-only only when it declares so', () => {
    const reader: AgentTool = { ...echo, definition: { ...echo.definition, name: 'reader' }, access: 'read' };
    const writer: AgentTool = { ...echo, definition: { ...echo.definition, name: 'writer' }, access: 'write' };
    const tools = invoker({ tools: [echo, reader, writer] });

    expect(tools.readsOnly('reader')).toBe(true);
    expect(tools.readsOnly('writer')).toBe(false);
    expect(tools.readsOnly('echo')).toBe(false); // undeclared: treated as a writer
    expect(tools.readsOnly('missing')).toBe(false);
  });

  it('should refuse two tools with the same name', () => {
    expect(() => new ToolInvoker({ tools: [echo, echo] })).toThrow('duplicate tool name: echo');
  });

  it('should narrow the offer through the registered filters in order, and offer nothing when one throws', () => {
    const sut = invoker();
    const agent = { id: 'agent-1', settings: {} };
    sut.registerOfferFilter({ name: 'no-crash', offer: (tools) => tools.filter((t) => t !== 'crash') });
    sut.registerOfferFilter({ name: 'no-hang', offer: (tools) => [...tools.filter((t) => t !== 'hang'), 'invented'] });

    expect(sut.offeredTo(['echo', 'hang', 'recoverable', 'crash'], agent)).toEqual(['echo', 'recoverable']);

    sut.registerOfferFilter({
      name: 'broken',
      offer: () => {
        throw new Error('policy unreadable');
      },
    });
    expect(sut.offeredTo(['echo'], agent)).toEqual([]);
  });
});
