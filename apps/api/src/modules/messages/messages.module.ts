import { Module, type OnModuleInit } from '@nestjs/common';

import { AgentRoster, AgentsModule } from '../agents';
import { EngineModule, ToolInvoker } from '../engine';
import { ChannelDirectory } from './channel-directory';
import { MessagePosting } from './message-posting.facade';
import { MessagesController } from './messages.controller';
import { MessagesRepository } from './messages.repository';
import { MessagesService } from './messages.service';
import { sendMessageTool } from './send-message.tool';

/**
 * Messages and channels: the read API, the posting facade other modules use, and the agents'
 * `send_message` tool, registered with the engine. The only writer of `messages` and
 * `message_channels`.
 */
@Module({
  imports: [AgentsModule, EngineModule],
  controllers: [MessagesController],
  providers: [ChannelDirectory, MessagePosting, MessagesRepository, MessagesService],
  exports: [ChannelDirectory, MessagePosting],
})
export class MessagesModule implements OnModuleInit {
  constructor(
    private readonly tools: ToolInvoker,
    private readonly posting: MessagePosting,
    private readonly roster: AgentRoster,
  ) {}

  onModuleInit(): void {
    this.tools.registerTool(sendMessageTool(this.posting, this.roster));
  }
}
