import { AgentLifecycleEventEntity } from './agent-lifecycle-event.entity';
import { AgentEntity } from './agent.entity';
import { CompanyEntity, COMPANY_SINGLETON_ID } from './company.entity';
import { CostRecordEntity } from './cost-record.entity';
import { CostRollupEntity } from './cost-rollup.entity';
import { DepartmentEntity } from './department.entity';
import { DomainEventEntity } from './domain-event.entity';
import { IdempotencyKeyEntity } from './idempotency-key.entity';
import { LoginFailureEntity } from './login-failure.entity';
import { PersonalityPresetEntity } from './personality-preset.entity';
import { ProjectEntity } from './project.entity';
import { ProviderCallEntity } from './provider-call.entity';
import { ProviderEntity } from './provider.entity';
import { RateLimitBucketEntity } from './rate-limit-bucket.entity';
import { ReportEntity } from './report.entity';
import { SessionEntity } from './session.entity';
import { SettingEntity } from './setting.entity';
import { TaskMetricEntity } from './task-metric.entity';
import { TaskEntity } from './task.entity';
import { ToolInvocationEntity } from './tool-invocation.entity';
import { UserEntity } from './user.entity';
import { WsTicketEntity } from './ws-ticket.entity';

export {
  AgentLifecycleEventEntity,
  AgentEntity,
  CompanyEntity,
  CostRecordEntity,
  CostRollupEntity,
  DepartmentEntity,
  DomainEventEntity,
  IdempotencyKeyEntity,
  LoginFailureEntity,
  PersonalityPresetEntity,
  ProjectEntity,
  ProviderCallEntity,
  ProviderEntity,
  RateLimitBucketEntity,
  ReportEntity,
  SessionEntity,
  SettingEntity,
  TaskMetricEntity,
  TaskEntity,
  ToolInvocationEntity,
  UserEntity,
  WsTicketEntity,
  COMPANY_SINGLETON_ID,
};

/** Every entity, registered with the DataSource of both dialects. */
export const ALL_ENTITIES = [
  AgentLifecycleEventEntity,
  AgentEntity,
  CompanyEntity,
  CostRecordEntity,
  CostRollupEntity,
  DepartmentEntity,
  DomainEventEntity,
  IdempotencyKeyEntity,
  LoginFailureEntity,
  PersonalityPresetEntity,
  ProjectEntity,
  ProviderCallEntity,
  ProviderEntity,
  RateLimitBucketEntity,
  ReportEntity,
  SessionEntity,
  SettingEntity,
  TaskMetricEntity,
  TaskEntity,
  ToolInvocationEntity,
  UserEntity,
  WsTicketEntity,
];
export type { JsonObject, JsonValue } from './json';
