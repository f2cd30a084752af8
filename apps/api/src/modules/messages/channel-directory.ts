import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';

import { assertTopicChannelName, ConflictError, DEFAULT_CHANNELS, ErrorCode } from '@app/domain';
import type { MessageChannelEntity } from '@app/persistence';
import { LOGGING_RUNTIME, type LoggingRuntime } from '@app/platform';

import { MessagesRepository } from './messages.repository';

/**
 * The channels: the default topics exist from the first start (created by whichever replica gets
 * there first; the others' inserts are ignored), direct channels open on the first message between
 * two agents, and further topics can be created by modules that need one.
 */
@Injectable()
export class ChannelDirectory implements OnApplicationBootstrap {
  private readonly log: Logger;
  private defaultsReady = false;

  constructor(
    private readonly messages: MessagesRepository,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('communication');
  }

  async onApplicationBootstrap(): Promise<void> {
    try {
      await this.ensureDefaults();
    } catch (error) {
      // Persistence may not be wired yet: the first read or post tries again.
      this.log.warn({ err: error }, 'communication.channels.defaults_deferred');
    }
  }

  async all(): Promise<MessageChannelEntity[]> {
    await this.ensureDefaults();
    return this.messages.channels();
  }

  async find(name: string): Promise<MessageChannelEntity | null> {
    await this.ensureDefaults();
    return this.messages.findChannel(name);
  }

  /** A new topic channel; 4005 when one of that name exists. */
  async createTopic(name: string, type: 'topic' | 'broadcast' = 'topic'): Promise<MessageChannelEntity> {
    const checked = assertTopicChannelName(name);
    if (await this.find(checked)) {
      throw new ConflictError(`Channel "${checked}" already exists`, ErrorCode.ChannelAlreadyExists);
    }
    const row: MessageChannelEntity = { name: checked, type, subscribers: [], createdAt: new Date() };
    await this.messages.insertChannelsIfMissing([row]);
    return (await this.messages.findChannel(checked)) ?? row;
  }

  /** The direct channel of two agents, opened on first use. */
  async openDirect(name: string, a: string, b: string): Promise<MessageChannelEntity> {
    const existing = await this.messages.findChannel(name);
    if (existing) {
      return existing;
    }
    const row: MessageChannelEntity = { name, type: 'direct', subscribers: [a, b].sort(), createdAt: new Date() };
    await this.messages.insertChannelsIfMissing([row]);
    return (await this.messages.findChannel(name)) ?? row;
  }

  private async ensureDefaults(): Promise<void> {
    if (this.defaultsReady) {
      return;
    }
    const now = new Date();
    await this.messages.insertChannelsIfMissing(
      DEFAULT_CHANNELS.map((name) => ({
        name,
        type: 'topic',
        subscribers: [],
        createdAt: now,
      })),
    );
    this.defaultsReady = true;
    this.log.info({ channels: DEFAULT_CHANNELS.length }, 'communication.channels.ready');
  }
}
