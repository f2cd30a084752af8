// The messages module's public face: other modules import only from here.
export { ChannelDirectory } from './channel-directory';
export { MessagePosting, type NewMessage } from './message-posting.facade';
export { MessagesModule } from './messages.module';
