import { ErrorCode, ValidationError } from '../errors';

/** What a message is about (the reference's MessageType). */
export const MESSAGE_TYPES = [
  'task_update',
  'question',
  'announcement',
  'review_request',
  'approval',
  'delegation',
  'status_report',
  'escalation',
  'meeting_contribution',
  'hr_notification',
] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];

export const MESSAGE_PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export type MessagePriority = (typeof MESSAGE_PRIORITIES)[number];

/** topic: anyone may post and read; direct: two agents; broadcast: announcements to everyone. */
export const CHANNEL_TYPES = ['topic', 'direct', 'broadcast'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

export const ATTACHMENT_TYPES = ['artifact', 'file', 'link'] as const;
export type AttachmentType = (typeof ATTACHMENT_TYPES)[number];

/** The channels every company has from the start. */
export const DEFAULT_CHANNELS: readonly string[] = [
  '#all-hands',
  '#engineering',
  '#product',
  '#design',
  '#incidents',
  '#code-review',
  '#watercooler',
];

export const MESSAGE_LIMITS = {
  /** Characters of a message's content. */
  maxContentChars: 16_000,
  maxChannelNameChars: 128,
  maxRecipientChars: 256,
  maxAttachments: 20,
  maxAttachmentRefChars: 1024,
  /** The newest this many messages of a channel are kept; older ones are pruned on write. */
  maxMessagesPerChannel: 1000,
} as const;

// A topic name: `#` then lower-case words joined by hyphens or underscores, as the defaults are.
const TOPIC_NAME = /^#[a-z0-9][a-z0-9_-]*$/;

/** Throws 2060 when the content is blank or too long; answers it unchanged otherwise. */
export function assertMessageContent(content: string): string {
  if (content.trim().length === 0) {
    throw new ValidationError('content: must not be blank', ErrorCode.MessageContentInvalid);
  }
  if (content.length > MESSAGE_LIMITS.maxContentChars) {
    throw new ValidationError(
      `content: at most ${MESSAGE_LIMITS.maxContentChars} characters`,
      ErrorCode.MessageContentInvalid,
    );
  }
  return content;
}

/** Narrows a message type; 2061 otherwise. */
export function parseMessageType(value: string): MessageType {
  if (!(MESSAGE_TYPES as readonly string[]).includes(value)) {
    throw new ValidationError(`type: must be one of ${MESSAGE_TYPES.join(', ')}`, ErrorCode.MessageTypeInvalid);
  }
  return value as MessageType;
}

/** Narrows a priority; 2062 otherwise. */
export function parseMessagePriority(value: string): MessagePriority {
  if (!(MESSAGE_PRIORITIES as readonly string[]).includes(value)) {
    throw new ValidationError(
      `priority: must be one of ${MESSAGE_PRIORITIES.join(', ')}`,
      ErrorCode.MessagePriorityInvalid,
    );
  }
  return value as MessagePriority;
}

/** A topic or broadcast channel's name (`#` and lower-case words); 2063 otherwise. */
export function assertTopicChannelName(name: string): string {
  if (name.length > MESSAGE_LIMITS.maxChannelNameChars || !TOPIC_NAME.test(name)) {
    throw new ValidationError(
      `channel: "${name}" is not a channel name (# then lower-case letters, digits, - or _; at most ` +
        `${MESSAGE_LIMITS.maxChannelNameChars} characters)`,
      ErrorCode.ChannelNameInvalid,
    );
  }
  return name;
}

/**
 * The direct channel of two agents: `@` and their names in sorted order, so either side finds the
 * same one. The same agent twice, a blank name or one with the separator is refused (2064).
 */
export function directChannelName(a: string, b: string): string {
  const [first, second] = [a.trim(), b.trim()].sort();
  if (!first || !second || first === second || first.includes(':') || second.includes(':')) {
    throw new ValidationError(
      'to: a direct message needs two different agents (names without ":")',
      ErrorCode.MessageRecipientInvalid,
    );
  }
  const name = `@${first}:${second}`;
  if (name.length > MESSAGE_LIMITS.maxChannelNameChars) {
    throw new ValidationError(
      "to: the agents' names are too long for a direct channel",
      ErrorCode.MessageRecipientInvalid,
    );
  }
  return name;
}
