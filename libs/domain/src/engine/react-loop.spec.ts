import {
  type ChatMessage,
  type ChatResult,
  DEFAULT_MAX_TURNS,
  type FinishReason,
  type ReactLoopPorts,
  runReactLoop,
  type ToolCall,
  type ToolDefinition,
  type ToolOutcome,
} from '@app/domain';

const SEED: ChatMessage[] = [
  { role: 'system', content: 'You are a tester.' },
  { role: 'user', content: 'Do the task.' },
];

const TOOLS: ToolDefinition[] = [{ name: 'read_file', description: 'Reads a file', parameters: { type: 'object' } }];

function reply(
  content: string,
  toolCalls: ToolCall[] = [],
  finishReason: FinishReason = toolCalls.length > 0 ? 'tool_calls' : 'stop',
  usage = { inputTokens: 10, outputTokens: 5 },
): ChatResult {
  return { model: 'm', content, toolCalls, usage, finishReason };
}

const toolCall = (id: string, name = 'read_file'): ToolCall => ({ id, name, arguments: { path: id } });

interface FakePorts extends ReactLoopPorts {
  calls: { messages: ChatMessage[]; turn: number }[];
  toolCalls: { call: ToolCall; turn: number }[];
  budgetChecks: number;
  stop: boolean;
  budget: string | null;
}

/** Scripted model replies (the last one repeats), recorded calls, and tools answered by `tool`. */
function fakePorts(
  script: ChatResult[],
  tool: (call: ToolCall, ports: FakePorts) => Promise<ToolOutcome> = (call) =>
    Promise.resolve({ content: `ran ${call.id}`, isError: false }),
): FakePorts {
  const ports: FakePorts = {
    calls: [],
    toolCalls: [],
    budgetChecks: 0,
    stop: false,
    budget: null,
    call(messages, _tools, turn) {
      ports.calls.push({ messages: [...messages], turn });
      return Promise.resolve(script[Math.min(ports.calls.length - 1, script.length - 1)]);
    },
    invokeTool(call, turn) {
      ports.toolCalls.push({ call, turn });
      return tool(call, ports);
    },
    shouldStop: () => ports.stop,
    budgetExceeded() {
      ports.budgetChecks += 1;
      return ports.budget;
    },
  };
  return ports;
}

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('runReactLoop', () => {
  it('should complete on a reply without tool calls', async () => {
    const ports = fakePorts([reply('All done.')]);

    const result = await runReactLoop(SEED, TOOLS, ports);

    expect(result).toMatchObject({
      reason: 'completed',
      turns: 1,
      finalContent: 'All done.',
      truncated: false,
      detail: null,
      error: null,
    });
    expect(ports.calls).toHaveLength(1);
    expect(ports.calls[0]).toEqual({ messages: SEED, turn: 1 });
    expect(result.messages).toEqual([...SEED, { role: 'assistant', content: 'All done.' }]);
  });

  it('should not mutate the seed', async () => {
    const seed = [...SEED];
    await runReactLoop(seed, TOOLS, fakePorts([reply('ok')]));
    expect(seed).toEqual(SEED);
  });

  it('should run tool calls and append their results as tool messages', async () => {
    const calls = [toolCall('c1'), toolCall('c2', 'write_file')];
    const ports = fakePorts([reply('working', calls), reply('done')], (call) =>
      Promise.resolve(
        call.id === 'c2' ? { content: 'permission denied', isError: true } : { content: 'contents', isError: false },
      ),
    );

    const result = await runReactLoop(SEED, TOOLS, ports);

    expect(result.reason).toBe('completed');
    expect(result.turns).toBe(2);
    expect(ports.toolCalls).toEqual([
      { call: calls[0], turn: 1 },
      { call: calls[1], turn: 1 },
    ]);
    expect(result.messages).toEqual([
      ...SEED,
      { role: 'assistant', content: 'working', toolCalls: calls },
      { role: 'tool', toolCallId: 'c1', name: 'read_file', content: 'contents' },
      { role: 'tool', toolCallId: 'c2', name: 'write_file', content: 'permission denied', isError: true },
      { role: 'assistant', content: 'done' },
    ]);
    expect(ports.calls[1].messages).toEqual(result.messages.slice(0, -1));
  });

  it('should run tool calls in parallel and still append results in call order', async () => {
    const started: string[] = [];
    const finished: string[] = [];
    const ports = fakePorts([reply('', [toolCall('slow'), toolCall('fast')]), reply('done')], async (call) => {
      started.push(call.id);
      // The first call resolves last: sequential execution would finish "slow" first.
      await delay(call.id === 'slow' ? 20 : 1);
      finished.push(call.id);
      return { content: `out ${call.id}`, isError: false };
    });

    const result = await runReactLoop(SEED, TOOLS, ports);

    expect(started).toEqual(['slow', 'fast']);
    expect(finished).toEqual(['fast', 'slow']);
    const toolMessages = result.messages.filter((m) => m.role === 'tool');
    expect(toolMessages.map((m) => [m.toolCallId, m.content])).toEqual([
      ['slow', 'out slow'],
      ['fast', 'out fast'],
    ]);
  });

  it.each([
    [undefined, DEFAULT_MAX_TURNS],
    [3, 3],
    [1, 1],
  ])('should stop with max_turns after exactly N calls (maxTurns %s)', async (maxTurns, expected) => {
    const ports = fakePorts([reply('again', [toolCall('c')])]);

    const result = await runReactLoop(SEED, TOOLS, ports, maxTurns);

    expect(DEFAULT_MAX_TURNS).toBe(20);
    expect(result.reason).toBe('max_turns');
    expect(result.turns).toBe(expected);
    expect(result.detail).toBe(`stopped after ${expected} turns without finishing`);
    expect(ports.calls).toHaveLength(expected);
    expect(ports.toolCalls).toHaveLength(expected);
  });

  it('should stop with max_turns without any call when maxTurns is 0', async () => {
    const ports = fakePorts([reply('never')]);
    const result = await runReactLoop(SEED, TOOLS, ports, 0);
    expect(result.reason).toBe('max_turns');
    expect(ports.calls).toHaveLength(0);
  });

  it('should check the budget before every call and stop with its reason', async () => {
    const ports = fakePorts([reply('', [toolCall('c')])], (call, p) => {
      // Spending during turn 2's tools exhausts the budget before turn 3's call.
      if (p.calls.length === 2) {
        p.budget = 'task budget of 1.00 spent';
      }
      return Promise.resolve({ content: call.id, isError: false });
    });

    const result = await runReactLoop(SEED, TOOLS, ports);

    expect(result).toMatchObject({ reason: 'budget_exhausted', detail: 'task budget of 1.00 spent', turns: 2 });
    expect(ports.calls).toHaveLength(2);
    expect(ports.budgetChecks).toBe(3);
  });

  it('should stop before the first call when the budget is already spent', async () => {
    const ports = fakePorts([reply('never')]);
    ports.budget = 'exhausted';

    const result = await runReactLoop(SEED, TOOLS, ports);

    expect(result).toMatchObject({ reason: 'budget_exhausted', detail: 'exhausted', turns: 0 });
    expect(ports.calls).toHaveLength(0);
    expect(result.messages).toEqual(SEED);
  });

  it('should stop with shutdown before the next call when the flag is set during a tool call', async () => {
    const ports = fakePorts([reply('', [toolCall('c')]), reply('never')], (call, p) => {
      p.stop = true;
      return Promise.resolve({ content: 'partial', isError: false });
    });

    const result = await runReactLoop(SEED, TOOLS, ports);

    expect(result).toMatchObject({ reason: 'shutdown', turns: 1, detail: null });
    expect(ports.calls).toHaveLength(1);
    // The tool's result is still recorded; the loop only stops at the turn boundary.
    expect(result.messages.at(-1)).toMatchObject({ role: 'tool', toolCallId: 'c', content: 'partial' });
  });

  it('should stop with shutdown before the first call and before the budget check', async () => {
    const ports = fakePorts([reply('never')]);
    ports.stop = true;
    ports.budget = 'exhausted';

    const result = await runReactLoop(SEED, TOOLS, ports);

    expect(result.reason).toBe('shutdown');
    expect(ports.calls).toHaveLength(0);
    expect(ports.budgetChecks).toBe(0);
  });

  it('should end with error, its message and the error when a call throws', async () => {
    const failure = new Error('provider unreachable');
    const ports = fakePorts([reply('', [toolCall('c')])]);
    const scripted = ports.call;
    ports.call = (messages, tools, turn) => (turn === 2 ? Promise.reject(failure) : scripted(messages, tools, turn));

    const result = await runReactLoop(SEED, TOOLS, ports);

    expect(result).toMatchObject({ reason: 'error', detail: 'provider unreachable', turns: 2 });
    expect(result.error).toBe(failure);
    expect(ports.calls).toHaveLength(1);
  });

  it('should describe a non-Error throw by its string', async () => {
    const ports = fakePorts([]);
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- some SDKs reject with bare strings
    ports.call = () => Promise.reject('boom');

    const result = await runReactLoop(SEED, TOOLS, ports);

    expect(result).toMatchObject({ reason: 'error', detail: 'boom', error: 'boom' });
  });

  it('should treat a call that throws while shutting down as shutdown', async () => {
    const ports = fakePorts([]);
    ports.call = () => {
      ports.stop = true;
      return Promise.reject(new Error('aborted'));
    };

    const result = await runReactLoop(SEED, TOOLS, ports);

    expect(result).toMatchObject({ reason: 'shutdown', detail: null, error: null, turns: 1 });
  });

  it('should complete but mark the reply truncated on finishReason length', async () => {
    const result = await runReactLoop(SEED, TOOLS, fakePorts([reply('cut o', [], 'length')]));
    expect(result).toMatchObject({ reason: 'completed', truncated: true, finalContent: 'cut o' });
  });

  it('should end with error when the model announces tool calls but sends none', async () => {
    const result = await runReactLoop(SEED, TOOLS, fakePorts([reply('hmm', [], 'tool_calls')]));
    expect(result).toMatchObject({
      reason: 'error',
      detail: 'the model announced tool calls but sent none',
      truncated: false,
      turns: 1,
    });
  });

  it('should sum token usage over all turns and keep the last reply as final content', async () => {
    const ports = fakePorts([
      reply('step one', [toolCall('a')], 'tool_calls', { inputTokens: 100, outputTokens: 7 }),
      reply('step two', [toolCall('b')], 'tool_calls', { inputTokens: 150, outputTokens: 11 }),
      reply('Summary: did it.', [], 'stop', { inputTokens: 200, outputTokens: 13 }),
    ]);

    const result = await runReactLoop(SEED, TOOLS, ports);

    expect(result).toMatchObject({
      reason: 'completed',
      turns: 3,
      inputTokens: 450,
      outputTokens: 31,
      finalContent: 'Summary: did it.',
    });
    expect(ports.calls.map((c) => c.turn)).toEqual([1, 2, 3]);
  });

  it('should park on the first escalated call, keep the other results, and refuse a second escalation', async () => {
    const ports = fakePorts([reply('try', [toolCall('a'), toolCall('b'), toolCall('c')])], (call) =>
      Promise.resolve(
        call.id === 'a'
          ? { content: 'ran a', isError: false }
          : { content: `needs approval ${call.id}`, isError: true, escalation: { reason: `risky ${call.id}` } },
      ),
    );

    const result = await runReactLoop(SEED, TOOLS, ports);

    expect(result).toMatchObject({ reason: 'parked', turns: 1, detail: 'waiting for approval: risky b' });
    expect(result.pending).toEqual({ call: toolCall('b'), reason: 'risky b' });
    const tools = result.messages.filter((m) => m.role === 'tool');
    expect(tools).toEqual([
      { role: 'tool', toolCallId: 'a', name: 'read_file', content: 'ran a' },
      { role: 'tool', toolCallId: 'c', name: 'read_file', content: 'needs approval c', isError: true },
    ]);
  });

  it('should continue from a saved point: turns and tokens carry on', async () => {
    const ports = fakePorts([reply('done', [], 'stop', { inputTokens: 3, outputTokens: 2 })]);

    const result = await runReactLoop(SEED, TOOLS, ports, 5, { turns: 4, inputTokens: 100, outputTokens: 50 });

    expect(result).toMatchObject({ reason: 'completed', turns: 5, inputTokens: 103, outputTokens: 52 });
    expect(ports.calls.map((c) => c.turn)).toEqual([5]);
  });
});
