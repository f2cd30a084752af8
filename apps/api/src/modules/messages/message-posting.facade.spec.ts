import { Channel, ErrorCode, MESSAGE_LIMITS } from '@app/domain';
import { EventBus } from '@app/platform';
import { makeServiceUnderTest, recordPublished } from '@app/testing';

import { ChannelDirectory } from './channel-directory';
import { MessagePosting } from './message-posting.facade';
import { MessagesRepository } from './messages.repository';

const AT = new Date('2026-01-02T03:04:05.000Z');

function build() {
  const unit = makeServiceUnderTest(MessagePosting);
  const m = {
    sut: unit.sut,
    messages: unit.mock(MessagesRepository),
    channels: unit.mock(ChannelDirectory),
    published: recordPublished(unit.mock(EventBus)),
  };
  m.messages.insert.mockResolvedValue();
  m.messages.prune.mockResolvedValue(0);
  m.channels.find.mockImplementation((name) =>
    Promise.resolve(name === '#engineering' ? { name, type: 'topic', subscribers: [], createdAt: AT } : null),
  );
  return m;
}

describe(MessagePosting.name, () => {
  it('should store the message, prune its channel to the retention limit and announce it', async () => {
    const { sut, messages, published } = build();

    const message = await sut.post({
      from: 'ada',
      channel: '#engineering',
      type: 'status_report',
      content: 'Done.',
      metadata: { taskId: 'task-1', costUsd: 0.25 },
    });

    expect(message).toMatchObject({
      from: 'ada',
      to: '#engineering',
      channel: '#engineering',
      priority: 'normal',
      metadata: { task_id: 'task-1', project_id: null, tokens_used: null, cost_usd: 0.25, extra: [] },
    });
    expect(messages.insert).toHaveBeenCalledWith(expect.objectContaining({ id: message.id, sender: 'ada' }));
    expect(messages.prune).toHaveBeenCalledWith('#engineering', MESSAGE_LIMITS.maxMessagesPerChannel);
    expect(published).toEqual([
      expect.objectContaining({
        channel: Channel.Messages,
        event_type: 'message.sent',
        payload: { channel: '#engineering', message },
      }),
    ]);
  });

  it('should open the direct channel of the two agents for a message to one agent', async () => {
    const { sut, channels } = build();
    channels.openDirect.mockResolvedValue({
      name: '@ada:bob',
      type: 'direct',
      subscribers: ['ada', 'bob'],
      createdAt: AT,
    });

    const message = await sut.post({ from: 'bob', toAgent: 'ada', type: 'question', content: 'Why?' });

    expect(channels.openDirect).toHaveBeenCalledWith('@ada:bob', 'bob', 'ada');
    expect(message).toMatchObject({ from: 'bob', to: 'ada', channel: '@ada:bob' });
  });

  it('should refuse an unknown channel with 3007 and store nothing', async () => {
    const { sut, messages, published } = build();

    await expect(sut.post({ from: 'ada', channel: '#nowhere', type: 'question', content: '?' })).rejects.toMatchObject({
      code: ErrorCode.ChannelNotFound,
    });
    expect(messages.insert).not.toHaveBeenCalled();
    expect(published).toEqual([]);
  });

  it('should answer 8005 when the message cannot be stored, and keep a failed prune from losing the message', async () => {
    const failing = build();
    failing.messages.insert.mockRejectedValue(new Error('disk full'));
    await expect(
      failing.sut.post({ from: 'ada', channel: '#engineering', type: 'question', content: '?' }),
    ).rejects.toMatchObject({ code: ErrorCode.CommunicationError });

    const pruning = build();
    pruning.messages.prune.mockRejectedValue(new Error('locked'));
    const message = await pruning.sut.post({ from: 'ada', channel: '#engineering', type: 'question', content: '?' });
    expect(pruning.published).toHaveLength(1);
    expect(message.content).toBe('?');
  });

  it('should post a message of a chosen id once: a repeat answers the stored message and announces nothing', async () => {
    const notice = {
      id: 'msg-1',
      from: 'system',
      channel: '#engineering',
      type: 'hr_notification',
      content: 'Ada left.',
    } as const;
    const first = build();
    first.messages.findById.mockResolvedValue(null);
    const message = await first.sut.post(notice);
    expect(message.id).toBe('msg-1');
    expect(first.published).toHaveLength(1);

    const repeat = build();
    const stored = first.messages.insert.mock.calls[0][0];
    repeat.messages.findById.mockResolvedValue(stored);
    expect(await repeat.sut.post(notice)).toEqual(message);
    expect(repeat.messages.insert).not.toHaveBeenCalled();
    expect(repeat.published).toEqual([]);

    const raced = build();
    raced.messages.findById.mockResolvedValueOnce(null).mockResolvedValueOnce(stored);
    raced.messages.insert.mockRejectedValue(new Error('duplicate key'));
    await expect(raced.sut.post(notice)).resolves.toEqual(message);
    expect(raced.published).toEqual([]);
  });

  it('should order messages posted within one millisecond', async () => {
    const { sut } = build();
    const first = await sut.post({ from: 'ada', channel: '#engineering', type: 'question', content: 'a' });
    const second = await sut.post({ from: 'ada', channel: '#engineering', type: 'question', content: 'b' });
    expect(Date.parse(second.timestamp)).toBeGreaterThan(Date.parse(first.timestamp));
  });
});
