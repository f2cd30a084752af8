import { Injectable } from '@nestjs/common';
import type { Repository } from 'typeorm';

import type { PageRequest } from '@app/domain';
import { MessageChannelEntity, MessageEntity, pagedQuery } from '@app/persistence';
import { DatabaseService } from '@app/platform';

import { MESSAGE_ROW_COLUMNS, type MessageRow } from './messages.mapper';

/** The only TypeORM user for messages and their channels. */
@Injectable()
export class MessagesRepository {
  constructor(private readonly database: DatabaseService) {}

  private messages(): Repository<MessageEntity> {
    return this.database.dataSource.getRepository(MessageEntity);
  }

  private channelRows(): Repository<MessageChannelEntity> {
    return this.database.dataSource.getRepository(MessageChannelEntity);
  }

  /** Every channel, by name. */
  channels(): Promise<MessageChannelEntity[]> {
    return this.channelRows().find({ order: { name: 'ASC' } });
  }

  findChannel(name: string): Promise<MessageChannelEntity | null> {
    return this.channelRows().findOneBy({ name });
  }

  /** Creates the channels that do not exist yet; existing ones (another replica's too) are left alone. */
  async insertChannelsIfMissing(rows: readonly MessageChannelEntity[]): Promise<void> {
    if (rows.length > 0) {
      await this.channelRows()
        .createQueryBuilder()
        .insert()
        .values([...rows])
        .orIgnore()
        .execute();
    }
  }

  /** One page, newest first (the id breaking ties), of one channel or of all, with the total. */
  async page(channel: string | null, page: PageRequest): Promise<{ items: MessageRow[]; total: number }> {
    const { rows, total } = await pagedQuery<MessageRow>({
      source: this.database.dataSource,
      table: 'messages',
      columns: MESSAGE_ROW_COLUMNS,
      where: channel === null ? [] : ['channel = :channel'],
      params: channel === null ? {} : { channel },
      orderBy: ['timestamp DESC', 'id DESC'],
      offset: page.offset,
      limit: page.limit,
    });
    return { items: rows, total };
  }

  findById(id: string): Promise<MessageEntity | null> {
    return this.messages().findOneBy({ id });
  }

  async insert(row: MessageEntity): Promise<void> {
    await this.messages().insert(row);
  }

  /**
   * Deletes a channel's messages beyond its newest `keep`: the oldest kept one is found through the
   * (channel, timestamp, id) index, and everything before it goes. Answers how many were deleted.
   */
  async prune(channel: string, keep: number): Promise<number> {
    const oldestKept = await this.messages()
      .createQueryBuilder('m')
      .select(['m.timestamp', 'm.id'])
      .where('m.channel = :channel', { channel })
      .orderBy('m.timestamp', 'DESC')
      .addOrderBy('m.id', 'DESC')
      .offset(keep - 1)
      .limit(1)
      .getOne();
    if (!oldestKept) {
      return 0;
    }
    const result = await this.messages()
      .createQueryBuilder()
      .delete()
      .from(MessageEntity)
      .where('channel = :channel', { channel })
      .andWhere('(timestamp < :at OR (timestamp = :at AND id < :id))', { at: oldestKept.timestamp, id: oldestKept.id })
      .execute();
    return result.affected ?? 0;
  }
}
