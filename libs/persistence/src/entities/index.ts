import { DomainEventEntity } from './domain-event.entity';
import { LoginFailureEntity } from './login-failure.entity';
import { RateLimitBucketEntity } from './rate-limit-bucket.entity';
import { SessionEntity } from './session.entity';
import { SettingEntity } from './setting.entity';
import { UserEntity } from './user.entity';
import { WsTicketEntity } from './ws-ticket.entity';

export {
  DomainEventEntity,
  LoginFailureEntity,
  RateLimitBucketEntity,
  SessionEntity,
  SettingEntity,
  UserEntity,
  WsTicketEntity,
};

/** Every entity, registered with the DataSource of both dialects. */
export const ALL_ENTITIES = [
  DomainEventEntity,
  LoginFailureEntity,
  RateLimitBucketEntity,
  SessionEntity,
  SettingEntity,
  UserEntity,
  WsTicketEntity,
];
