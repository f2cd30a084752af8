import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import {
  assertMessageContent,
  assertTopicChannelName,
  type AttachmentType,
  Channel,
  directChannelName,
  ErrorCode,
  InternalError,
  MESSAGE_LIMITS,
  type MessagePriority,
  type MessageType,
  NotFoundError,
} from '@app/domain';
import type { MessageChannelEntity, MessageEntity } from '@app/persistence';
import { announce, EventBus, LOGGING_RUNTIME, type LoggingRuntime } from '@app/platform';

import type { MessageDto } from './dto/message.dto';
import { ChannelDirectory } from './channel-directory';
import { toMessageDto } from './messages.mapper';
import { MessagesRepository } from './messages.repository';

/** What is posted: to a topic channel, or directly to one agent (a direct channel of the two). */
export interface NewMessage {
  /**
   * The message's id, when the caller chooses it: a post whose id is already stored answers that
   * message and posts nothing (a step repeated after a crash posts once). A new id otherwise.
   */
  id?: string;
  /** An agent name, or `system`. */
  from: string;
  type: MessageType;
  content: string;
  priority?: MessagePriority;
  /** A topic channel (`#engineering`); exactly one of channel and toAgent. */
  channel?: string;
  /** An agent's name: the message goes to the direct channel of the sender and this agent. */
  toAgent?: string;
  attachments?: Array<{ type: AttachmentType; ref: string }>;
  metadata?: {
    taskId?: string | null;
    projectId?: string | null;
    tokensUsed?: number | null;
    costUsd?: number | null;
    extra?: Array<[string, string]>;
  };
}

/**
 * How other modules (meetings, coordination) and agents (the send_message tool) post messages:
 * validated, stored, the channel pruned to its newest messages, and announced on the `messages`
 * channel, so WebSocket clients and the other replicas see it.
 */
@Injectable()
export class MessagePosting {
  private readonly log: Logger;
  /** The last timestamp given out: messages posted within one millisecond still list in order. */
  private lastAt = 0;

  constructor(
    private readonly messages: MessagesRepository,
    private readonly channels: ChannelDirectory,
    private readonly bus: EventBus,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('communication');
  }

  async post(input: NewMessage): Promise<MessageDto> {
    const content = assertMessageContent(input.content);
    const posted = await this.alreadyPosted(input.id);
    if (posted) {
      return posted;
    }
    const channel = await this.target(input);
    const row: MessageEntity = {
      id: input.id ?? randomUUID(),
      timestamp: this.nextTimestamp(),
      sender: input.from,
      recipient: input.toAgent ?? channel.name,
      type: input.type,
      priority: input.priority ?? 'normal',
      channel: channel.name,
      content,
      attachments: (input.attachments ?? []).slice(0, MESSAGE_LIMITS.maxAttachments),
      metadata: {
        task_id: input.metadata?.taskId ?? null,
        project_id: input.metadata?.projectId ?? null,
        tokens_used: input.metadata?.tokensUsed ?? null,
        cost_usd: input.metadata?.costUsd ?? null,
        extra: input.metadata?.extra ?? [],
      },
    };
    try {
      await this.messages.insert(row);
    } catch (error) {
      // Another writer of the same chosen id got there first: theirs is the message.
      const theirs = await this.alreadyPosted(input.id);
      if (theirs) {
        return theirs;
      }
      throw new InternalError(`Message to ${channel.name} could not be stored`, ErrorCode.CommunicationError, error);
    }
    await this.pruneQuietly(channel.name);
    const message = toMessageDto(row);
    this.log.info(
      { message_id: row.id, channel: row.channel, sender: row.sender, type: row.type },
      'communication.message.sent',
    );
    await announce(this.bus, this.log, {
      channel: Channel.Messages,
      event_type: 'message.sent',
      payload: { channel: row.channel, message },
    });
    return message;
  }

  private async alreadyPosted(id: string | undefined): Promise<MessageDto | null> {
    const row = id === undefined ? null : await this.messages.findById(id);
    return row ? toMessageDto(row) : null;
  }

  private nextTimestamp(): Date {
    this.lastAt = Math.max(Date.now(), this.lastAt + 1);
    return new Date(this.lastAt);
  }

  private async target(input: NewMessage): Promise<MessageChannelEntity> {
    if ((input.channel === undefined) === (input.toAgent === undefined)) {
      throw new InternalError('a message names exactly one of a channel and an agent');
    }
    if (input.toAgent !== undefined) {
      return this.channels.openDirect(directChannelName(input.from, input.toAgent), input.from, input.toAgent);
    }
    const name = assertTopicChannelName(input.channel as string);
    const channel = await this.channels.find(name);
    if (!channel) {
      throw new NotFoundError(`Channel "${name}" not found`, ErrorCode.ChannelNotFound);
    }
    return channel;
  }

  // Retention is housekeeping: a failed prune leaves extra rows for the next post, never a lost message.
  private async pruneQuietly(channel: string): Promise<void> {
    try {
      const pruned = await this.messages.prune(channel, MESSAGE_LIMITS.maxMessagesPerChannel);
      if (pruned > 0) {
        this.log.debug({ channel, pruned }, 'communication.channel.pruned');
      }
    } catch (error) {
      this.log.warn({ channel, err: error }, 'communication.channel.prune_failed');
    }
  }
}
