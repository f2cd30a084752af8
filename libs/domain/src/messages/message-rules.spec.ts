import {
  assertMessageContent,
  assertTopicChannelName,
  directChannelName,
  ErrorCode,
  parseMessagePriority,
  parseMessageType,
} from '@app/domain';

describe('message rules', () => {
  it('should keep content that is not blank and refuse blank or oversized content (2060)', () => {
    expect(assertMessageContent(' hi ')).toBe(' hi ');
    expect(() => assertMessageContent(' \n')).toThrow(
      expect.objectContaining({ code: ErrorCode.MessageContentInvalid }),
    );
    expect(() => assertMessageContent('x'.repeat(16_001))).toThrow(
      expect.objectContaining({ code: ErrorCode.MessageContentInvalid }),
    );
  });

  it('should narrow the reference types and priorities and refuse others (2061, 2062)', () => {
    expect(parseMessageType('meeting_contribution')).toBe('meeting_contribution');
    expect(parseMessagePriority('urgent')).toBe('urgent');
    expect(() => parseMessageType('gossip')).toThrow(expect.objectContaining({ code: ErrorCode.MessageTypeInvalid }));
    expect(() => parseMessagePriority('medium')).toThrow(
      expect.objectContaining({ code: ErrorCode.MessagePriorityInvalid }),
    );
  });

  it.each(['#engineering', '#code-review', '#a_b1'])('should accept the topic name %s', (name) => {
    expect(assertTopicChannelName(name)).toBe(name);
  });

  it.each(['engineering', '#Engineering', '#', '#a b', `#${'a'.repeat(128)}`, '@ada:bob'])(
    'should refuse the topic name %s (2063)',
    (name) => {
      expect(() => assertTopicChannelName(name)).toThrow(
        expect.objectContaining({ code: ErrorCode.ChannelNameInvalid }),
      );
    },
  );

  it('should name a direct channel the same from either side and refuse one agent twice (2064)', () => {
    expect(directChannelName('bob', 'ada')).toBe('@ada:bob');
    expect(directChannelName('ada', 'bob')).toBe('@ada:bob');
    for (const [a, b] of [
      ['ada', 'ada'],
      ['ada', ' '],
      ['a:b', 'c'],
    ]) {
      expect(() => directChannelName(a, b)).toThrow(
        expect.objectContaining({ code: ErrorCode.MessageRecipientInvalid }),
      );
    }
  });
});
