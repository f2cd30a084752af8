import { Module } from '@nestjs/common';

import { DEFAULT_REALTIME_OPTIONS, REALTIME_OPTIONS } from './realtime.constants';
import { RealtimeGateway } from './realtime.gateway';

/**
 * The WebSocket gateway. Needs the EventBus (global, from the platform) and a WsAuthenticator
 * (provided by the accounts module); tests override REALTIME_OPTIONS for short heartbeats.
 */
@Module({
  providers: [{ provide: REALTIME_OPTIONS, useValue: DEFAULT_REALTIME_OPTIONS }, RealtimeGateway],
})
export class RealtimeModule {}
