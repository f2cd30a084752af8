import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';

import { type Page, Permission } from '@app/domain';
import { Actor, type ActorContext, Endpoint, PathId, RequiresSubsystems } from '@app/platform';

import { ChannelDto, MessageDto, MessageQueryDto } from './dto/message.dto';
import { MessagesService } from './messages.service';

/** The message history and its channels (agents post; people read). */
@ApiTags('messages')
@ApiBearerAuth()
@Controller('messages')
@RequiresSubsystems('persistence')
export class MessagesController {
  constructor(private readonly messages: MessagesService) {}

  @Get()
  @Endpoint({
    summary: 'Messages of one channel (or of all), newest first; an unknown channel: 404 (3007)',
    paged: MessageDto,
    errors: [400, 401, 403, 404],
    permission: Permission.Read,
  })
  list(@Actor() actor: ActorContext, @Query() query: MessageQueryDto): Promise<Page<MessageDto>> {
    return this.messages.list(actor, query, { offset: query.offset, limit: query.limit });
  }

  // Before `:message_id`, so `channels` is never read as an id.
  @Get('channels')
  @Endpoint({
    summary: 'The message channels: the default topics and the direct channels agents opened',
    response: ChannelDto,
    isArray: true,
    errors: [401, 403],
    permission: Permission.Read,
  })
  channels(): Promise<ChannelDto[]> {
    return this.messages.listChannels();
  }

  @Get(':message_id')
  @Endpoint({
    summary: 'One message (3026 when there is none)',
    response: MessageDto,
    errors: [400, 401, 403, 404],
    permission: Permission.Read,
  })
  get(@Actor() actor: ActorContext, @PathId('message_id') id: string): Promise<MessageDto> {
    return this.messages.get(actor, id);
  }
}
