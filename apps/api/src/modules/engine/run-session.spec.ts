import pino from 'pino';

import type { ChatResult, CostEntry } from '@app/domain';
import type { AgentEntity, TaskEntity, ToolInvocationEntity } from '@app/persistence';
import { gate } from '@app/testing';

import type { RegisteredProvider } from '../providers';
import type { RunRecordsRepository } from './run-records.repository';
import { RunSession, type SessionDeps } from './run-session';
import type { RunSpend } from './run-spend';
import type { ToolInvoker } from './tools/tool-invoker';
import type { WorkspaceManager } from './workspace/workspace-manager';

const REPLY: ChatResult = {
  model: 'm',
  content: 'ok',
  toolCalls: [],
  usage: { inputTokens: 1000, outputTokens: 500 },
  finishReason: 'stop',
};

function setup() {
  const costs: CostEntry[] = [];
  const tools: ToolInvocationEntity[] = [];
  const costGates: Array<ReturnType<typeof gate>> = [];
  const spend = {
    reserve: jest.fn(() => Promise.resolve({ ok: true as const, reservationId: null })),
    record: jest.fn((entry: CostEntry) => {
      const g = gate();
      costGates.push(g);
      return g.promise.then(() => {
        costs.push(entry);
      });
    }),
    release: jest.fn(() => Promise.resolve()),
  };
  const records = {
    insertToolInvocation: jest.fn((row: ToolInvocationEntity) => {
      tools.push(row);
      return Promise.resolve();
    }),
  };
  const log = pino({ level: 'silent' });
  const errors = jest.spyOn(log, 'error');
  const deps: SessionDeps = {
    provider: {
      record: { name: 'mock', models: [{ id: 'm', alias: null, costPer1kInput: 0.01, costPer1kOutput: 0.02 }] },
      driver: { chat: jest.fn(() => Promise.resolve(REPLY)) },
    } as unknown as RegisteredProvider,
    model: 'm',
    records: records as unknown as RunRecordsRepository,
    spend: spend as unknown as RunSpend,
    workspaces: {
      readBase: (read: (root: string) => Promise<unknown>) => read('/base'),
    } as unknown as WorkspaceManager,
    tools: {
      readsOnly: () => true,
      invoke: () => Promise.resolve({ content: 'a.txt', isError: false, tool: 'list_files', durationMs: 1 }),
    } as unknown as ToolInvoker,
    log,
    callTimeoutMs: 1000,
  };
  const task = { id: 'task-1', budgetLimit: 0 } as TaskEntity;
  const agent = { id: 'agent-1', name: 'Ada', settings: {} } as AgentEntity;
  const control = { shouldStop: () => false, signal: new AbortController().signal };
  const session = new RunSession(task, agent, 0, undefined, control, deps);
  return { session, records, spend, costs, tools, costGates, errors };
}

describe(RunSession.name, () => {
  it('should answer a model call before its cost record is written, and settle once it is', async () => {
    const { session, costs, costGates } = setup();

    await session.call([], []);
    expect(session.cost).toBeCloseTo(0.02, 10); // counted for the budget at once
    expect(costs).toHaveLength(0);

    let settled = false;
    const settling = session.settle().then(() => (settled = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    costGates[0].open();
    await settling;

    expect(costs).toEqual([expect.objectContaining({ taskId: 'task-1', costUsd: session.cost })]);
  });

  it('should write the rows of a run in the order they happened', async () => {
    const { session, records, spend, costGates } = setup();

    await session.call([], []);
    await session.invokeTool({ id: 'c1', name: 'list_files', arguments: {} });
    await session.call([], []);
    expect(records.insertToolInvocation).not.toHaveBeenCalled(); // behind the first cost record
    costGates[0].open();
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    costGates[1].open();
    await session.settle();

    const order = [
      ...spend.record.mock.invocationCallOrder.map((n) => [n, 'cost']),
      ...records.insertToolInvocation.mock.invocationCallOrder.map((n) => [n, 'tool']),
    ]
      .sort((a, b) => Number(a[0]) - Number(b[0]))
      .map((x) => x[1]);
    expect(order).toEqual(['cost', 'tool', 'cost']);
  });

  it('should stop the run at the next call, and fail settle, when a cost record cannot be written', async () => {
    const { session, costGates } = setup();

    await session.call([], []);
    costGates[0].fail(new Error('disk full'));
    await expect(session.settle()).rejects.toThrow('cost record not written: disk full');
    await expect(session.call([], [])).rejects.toThrow('disk full');
  });

  describe('the reservation made ahead of the claim', () => {
    const seed = [
      { role: 'system' as const, content: 'You are Ada.' },
      { role: 'user' as const, content: 'Do the task.' },
    ];
    const tools = [{ name: 'list_files', description: 'lists', parameters: {} }];

    it('should be taken by the first call of the same conversation, not reserved again', async () => {
      const { session, spend } = setup();
      spend.reserve.mockResolvedValueOnce({ ok: true, reservationId: 'r-ahead' } as never);

      session.reserveAhead(seed, tools);
      expect(await session.budgetExceeded([...seed], tools)).toBeNull(); // the loop copies the seed
      expect(spend.reserve).toHaveBeenCalledTimes(1);
      await session.call([...seed], tools);
      await session.giveBack(); // already taken: nothing to give back
      expect(spend.release).not.toHaveBeenCalled();
    });

    it('should answer its refusal at the first call', async () => {
      const { session, spend } = setup();
      spend.reserve.mockResolvedValueOnce({ ok: false, reason: 'monthly budget exhausted', code: 6000 } as never);

      session.reserveAhead(seed, tools);
      expect(await session.budgetExceeded([...seed], tools)).toBe('monthly budget exhausted');
    });

    it('should be given back when the run does not go ahead, and a failed reservation raised at the first call', async () => {
      const { session, spend } = setup();
      spend.reserve.mockResolvedValueOnce({ ok: true, reservationId: 'r-lost' } as never);
      session.reserveAhead(seed, tools);
      await session.giveBack();
      expect(spend.release).toHaveBeenCalledWith('r-lost');

      const other = setup();
      other.spend.reserve.mockRejectedValueOnce(new Error('connection lost'));
      other.session.reserveAhead(seed, tools);
      await new Promise((resolve) => setImmediate(resolve)); // no unhandled rejection meanwhile
      await expect(other.session.budgetExceeded([...seed], tools)).rejects.toThrow('connection lost');
    });

    it('should be released, and a new one made, when the first call is of another conversation', async () => {
      const { session, spend } = setup();
      spend.reserve.mockResolvedValueOnce({ ok: true, reservationId: 'r-ahead' } as never);
      session.reserveAhead(seed, tools);

      expect(await session.budgetExceeded([seed[0]], tools)).toBeNull();
      expect(spend.release).toHaveBeenCalledWith('r-ahead');
      expect(spend.reserve).toHaveBeenCalledTimes(2);
    });
  });

  it('should log a tool row that cannot be written and carry on', async () => {
    const { session, records, errors } = setup();
    records.insertToolInvocation.mockImplementationOnce(() => Promise.reject(new Error('locked')));

    await session.invokeTool({ id: 'c1', name: 'list_files', arguments: {} });
    await expect(session.settle()).resolves.toBeUndefined();

    expect(errors).toHaveBeenCalledWith(expect.objectContaining({ tool: 'list_files' }), 'engine.tool.record_failed');
  });
});
