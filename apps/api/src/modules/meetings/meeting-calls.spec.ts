import { type ChatResult, type LlmDriver, type MeetingCallRequest } from '@app/domain';
import { APP_CONFIG } from '@app/platform';
import { agentRow, makeServiceUnderTest } from '@app/testing';

import { RunSpend } from '../engine';
import { MessagePosting } from '../messages';
import { ModelRouter, ProviderRegistry, type RegisteredProvider } from '../providers';
import { MeetingCalls } from './meeting-calls';

const ADA = agentRow({ id: 'a1', name: 'Ada', level: 'senior', modelId: null });
const REQUEST: MeetingCallRequest = {
  agentId: 'a1',
  phase: 'synthesis',
  turnNumber: 3,
  prompt: 'Synthesize.',
  maxOutputTokens: 200,
};
const SCOPE = { meetingId: 'mtg-1', meetingTypeName: 'sync', channel: '#all-hands', agents: new Map([['a1', ADA]]) };

function calls(chat: jest.Mock) {
  const built = makeServiceUnderTest(MeetingCalls, [
    { provide: APP_CONFIG, useValue: { engine: { callTimeoutSeconds: 30 } } },
  ]);
  built.mock(ModelRouter).route.mockReturnValue({
    model: { provider: 'mock', id: 'mock-small' },
  } as ReturnType<ModelRouter['route']>);
  const registered = {
    record: {
      name: 'mock',
      models: [{ id: 'mock-small', alias: null, costPer1kInput: 1, costPer1kOutput: 2 }],
    },
    driver: { chat } as unknown as LlmDriver,
  } as unknown as RegisteredProvider;
  built.mock(ProviderRegistry).get.mockReturnValue(registered);
  built.mock(MessagePosting).post.mockResolvedValue({} as never);
  return built;
}

const REPLY: ChatResult = {
  model: 'mock-small',
  content: 'SUMMARY: done',
  toolCalls: [],
  usage: { inputTokens: 1000, outputTokens: 500 },
  finishReason: 'stop',
};

describe(MeetingCalls.name, () => {
  it('should reserve, call the routed model and record a coordination cost without a task', async () => {
    const chat = jest.fn().mockResolvedValue(REPLY);
    const { sut, mock } = calls(chat);
    mock(RunSpend).reserve.mockResolvedValue({ ok: true, reservationId: 'r1' });
    mock(RunSpend).record.mockResolvedValue();

    const reply = await sut.portsFor(SCOPE).speak(REQUEST);

    expect(reply).toEqual({ content: 'SUMMARY: done', inputTokens: 1000, outputTokens: 500 });
    expect(mock(RunSpend).reserve).toHaveBeenCalledWith(
      expect.objectContaining({
        agent: ADA,
        provider: 'mock',
        model: 'mock-small',
        task: expect.objectContaining({ id: 'mtg-1', budgetLimit: 0 }),
      }),
    );
    expect(chat).toHaveBeenCalledWith(
      expect.objectContaining({ model: 'mock-small', maxOutputTokens: 200, timeoutMs: 30_000 }),
    );
    expect(mock(RunSpend).record).toHaveBeenCalledWith(
      expect.objectContaining({
        agentId: 'a1',
        taskId: null,
        callCategory: 'coordination',
        costUsd: 2,
        inputTokens: 1000,
      }),
      'r1',
    );
  });

  it('should fail without calling the model when the budget refuses', async () => {
    const chat = jest.fn();
    const { sut, mock } = calls(chat);
    mock(RunSpend).reserve.mockResolvedValue({ ok: false, reason: 'monthly budget spent', code: 6000 });

    await expect(sut.portsFor(SCOPE).speak(REQUEST)).rejects.toThrow('monthly budget spent');
    expect(chat).not.toHaveBeenCalled();
  });

  it('should release the reservation when the call fails', async () => {
    const { sut, mock } = calls(jest.fn().mockRejectedValue(new Error('provider down')));
    mock(RunSpend).reserve.mockResolvedValue({ ok: true, reservationId: 'r2' });
    mock(RunSpend).release.mockResolvedValue();

    await expect(sut.portsFor(SCOPE).speak(REQUEST)).rejects.toThrow('provider down');
    expect(mock(RunSpend).release).toHaveBeenCalledWith('r2');
  });

  it('should post a contribution as a meeting_contribution message and absorb a failed post', async () => {
    const { sut, mock } = calls(jest.fn());
    const contribution = {
      agentId: 'a1',
      content: 'My view',
      phase: 'discussion' as const,
      turnNumber: 2,
      inputTokens: 3,
      outputTokens: 4,
      timestamp: new Date(),
    };

    await sut.portsFor(SCOPE).contributed(contribution);
    expect(mock(MessagePosting).post).toHaveBeenCalledWith(
      expect.objectContaining({ from: 'Ada', type: 'meeting_contribution', channel: '#all-hands', content: 'My view' }),
    );

    mock(MessagePosting).post.mockRejectedValue(new Error('channel gone'));
    await expect(sut.portsFor(SCOPE).contributed(contribution)).resolves.toBeUndefined();
  });
});
