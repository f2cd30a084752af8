import { APP_CONFIG } from '@app/platform';
import { agentRow, makeServiceUnderTest, taskRow } from '@app/testing';
import type { ChatResult, RoutingDecision } from '@app/domain';

import { RunSpend } from '../engine';
import { ModelRouter, ProviderRegistry, type RegisteredProvider } from '../providers';
import { TaskDecomposer } from './task-decomposer';

const SUBTASKS = { subtasks: [{ id: 'a', title: 'Plan', description: 'Plan it.' }] };

function reply(overrides: Partial<ChatResult>): ChatResult {
  return {
    model: 'm1',
    content: '',
    toolCalls: [],
    usage: { inputTokens: 100, outputTokens: 50 },
    finishReason: 'stop',
    ...overrides,
  };
}

describe(TaskDecomposer.name, () => {
  const chat = jest.fn<Promise<ChatResult>, unknown[]>();

  function build() {
    const built = makeServiceUnderTest(TaskDecomposer, [
      { provide: APP_CONFIG, useValue: { engine: { callTimeoutSeconds: 5 } } },
    ]);
    built.mock(ModelRouter).route.mockReturnValue({ model: { provider: 'p', id: 'm1' } } as RoutingDecision);
    const provider = {
      record: { name: 'p', models: [{ id: 'm1', costPer1kInput: 1, costPer1kOutput: 2 }] },
      driver: { chat },
    } as unknown as RegisteredProvider;
    built.mock(ProviderRegistry).get.mockReturnValue(provider);
    built.mock(RunSpend).reserve.mockResolvedValue({ ok: true, reservationId: 'r1' });
    built.mock(RunSpend).record.mockResolvedValue(undefined);
    built.mock(RunSpend).release.mockResolvedValue(undefined);
    return built;
  }

  beforeEach(() => chat.mockReset());

  it.each([
    [
      'a submit_decomposition tool call',
      reply({ toolCalls: [{ id: 'c1', name: 'submit_decomposition', arguments: SUBTASKS }] }),
    ],
    ['JSON text', reply({ content: JSON.stringify(SUBTASKS) })],
    [
      'JSON in a fenced block after prose',
      reply({ content: `Here it is:\n\`\`\`json\n${JSON.stringify(SUBTASKS)}\n\`\`\`` }),
    ],
  ])('should read the subtasks from %s and record the call as coordination', async (_how, answer) => {
    const { sut, mock } = build();
    chat.mockResolvedValue(answer);
    const result = await sut.decompose(taskRow(), agentRow(), [agentRow()], 10);
    expect(result).toMatchObject({ provider: 'p', model: 'm1', tokens: 150, cost: 0.2 });
    expect(result.subtasks.map((s) => s.id)).toEqual(['a']);
    expect(mock(RunSpend).record).toHaveBeenCalledWith(
      expect.objectContaining({ callCategory: 'coordination', taskId: 'task-1', inputTokens: 100, costUsd: 0.2 }),
      'r1',
    );
  });

  it.each([
    ['no JSON at all', 'I would rather not.', /without a decomposition/],
    ['malformed JSON', '{"subtasks": [}', /malformed JSON/],
  ])('should refuse an answer with %s', async (_how, content, message) => {
    const { sut } = build();
    chat.mockResolvedValue(reply({ content }));
    await expect(sut.decompose(taskRow(), agentRow(), [], 10)).rejects.toThrow(message);
  });

  it('should give the reservation back when the call fails', async () => {
    const { sut, mock } = build();
    chat.mockRejectedValue(new Error('provider down'));
    await expect(sut.decompose(taskRow(), agentRow(), [], 10)).rejects.toThrow(/call failed: provider down/);
    expect(mock(RunSpend).release).toHaveBeenCalledWith('r1');
    expect(mock(RunSpend).record).not.toHaveBeenCalled();
  });

  it('should not call the model when the spend control refuses', async () => {
    const { sut, mock } = build();
    mock(RunSpend).reserve.mockResolvedValue({ ok: false, reason: 'monthly budget spent', code: 6001 });
    await expect(sut.decompose(taskRow(), agentRow(), [], 10)).rejects.toThrow(/refused: monthly budget spent/);
    expect(chat).not.toHaveBeenCalled();
  });
});
