import { Injectable } from '@nestjs/common';

import {
  ErrorCode,
  NotFoundError,
  Page,
  type PageRequest,
  Permission,
  redactCostPayload,
  roleHasPermission,
} from '@app/domain';
import type { ActorContext } from '@app/platform';

import type { ChannelDto, MessageDto, MessageQueryDto } from './dto/message.dto';
import { ChannelDirectory } from './channel-directory';
import { toChannelDto, toMessageDto, toMessageDtoFromRow } from './messages.mapper';
import { MessagesRepository } from './messages.repository';

/** The messages API: channels, and the history of one channel or of all, newest first. */
@Injectable()
export class MessagesService {
  constructor(
    private readonly messages: MessagesRepository,
    private readonly channels: ChannelDirectory,
  ) {}

  async listChannels(): Promise<ChannelDto[]> {
    return (await this.channels.all()).map(toChannelDto);
  }

  /** One page, newest first; an unknown channel is 404 (3007). Read-only roles see no cost. */
  async list(actor: ActorContext, query: MessageQueryDto, page: PageRequest): Promise<Page<MessageDto>> {
    const channel = query.channel || null;
    if (channel !== null && !(await this.channels.find(channel))) {
      throw new NotFoundError(`Channel "${channel}" not found`, ErrorCode.ChannelNotFound);
    }
    const { items, total } = await this.messages.page(channel, page);
    const visible = items.map(toMessageDtoFromRow).map((m) => forActor(actor, m));
    return new Page(visible, total, page.offset, page.limit);
  }

  async get(actor: ActorContext, id: string): Promise<MessageDto> {
    const row = await this.messages.findById(id);
    if (!row) {
      throw new NotFoundError(`Message "${id}" not found`, ErrorCode.MessageNotFound);
    }
    return forActor(actor, toMessageDto(row));
  }
}

/** Read-only roles follow the conversation, not the spend. */
function forActor(actor: ActorContext, message: MessageDto): MessageDto {
  if (roleHasPermission(actor.role, Permission.Write)) {
    return message;
  }
  return redactCostPayload(message as unknown as Record<string, unknown>).payload as unknown as MessageDto;
}
