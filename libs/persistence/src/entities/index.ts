import { AgentLifecycleEventEntity } from './agent-lifecycle-event.entity';
import { AgentEntity } from './agent.entity';
import { AgentTrustEntity } from './agent-trust.entity';
import { AutonomyDowngradeEntity } from './autonomy-downgrade.entity';
import { ApprovalItemEntity } from './approval-item.entity';
import { AuditEntryEntity } from './audit-entry.entity';
import { ArtifactEntity } from './artifact.entity';
import { BudgetAlertLevelEntity } from './budget-alert-level.entity';
import { BudgetReservationEntity } from './budget-reservation.entity';
import { CompanyEntity, COMPANY_SINGLETON_ID } from './company.entity';
import { CostRecordEntity } from './cost-record.entity';
import { CostRollupEntity } from './cost-rollup.entity';
import { DelegationRecordEntity } from './delegation-record.entity';
import { DepartmentEntity } from './department.entity';
import { DomainEventEntity } from './domain-event.entity';
import {
  MemoryEmbedderStateEntity,
  MemoryEntryPostgresEntity,
  MemoryEntrySqliteEntity,
  MemoryPendingVectorPostgresEntity,
  MemoryPendingVectorSqliteEntity,
  OrgFactPostgresEntity,
  OrgFactSqliteEntity,
} from './memory.entity';
import { IdempotencyKeyEntity } from './idempotency-key.entity';
import { LevelChangeEntity } from './level-change.entity';
import { LoginFailureEntity } from './login-failure.entity';
import { MeetingEntity } from './meeting.entity';
import { OffboardingRecordEntity } from './offboarding-record.entity';
import { AgentOnboardingEntity } from './agent-onboarding.entity';
import { HiringRequestEntity } from './hiring-request.entity';
import { ToolServerEntity } from './tool-server.entity';
import { HeldRunEntity } from './held-run.entity';
import { ParkedRunEntity } from './parked-run.entity';
import { MessageEntity } from './message.entity';
import { MessageChannelEntity } from './message-channel.entity';
import { PersonalityPresetEntity } from './personality-preset.entity';
import { ProjectEntity } from './project.entity';
import { ProviderCallEntity } from './provider-call.entity';
import { ProviderEntity } from './provider.entity';
import { RateLimitBucketEntity } from './rate-limit-bucket.entity';
import { RiskRecordEntity } from './risk-record.entity';
import { SecurityRecordEntity } from './security-record.entity';
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
  AgentTrustEntity,
  AutonomyDowngradeEntity,
  ApprovalItemEntity,
  AuditEntryEntity,
  ArtifactEntity,
  BudgetAlertLevelEntity,
  BudgetReservationEntity,
  CompanyEntity,
  CostRecordEntity,
  CostRollupEntity,
  DelegationRecordEntity,
  DepartmentEntity,
  DomainEventEntity,
  IdempotencyKeyEntity,
  LevelChangeEntity,
  LoginFailureEntity,
  MeetingEntity,
  MemoryEmbedderStateEntity,
  HeldRunEntity,
  OffboardingRecordEntity,
  AgentOnboardingEntity,
  HiringRequestEntity,
  ToolServerEntity,
  ParkedRunEntity,
  MessageChannelEntity,
  MessageEntity,
  PersonalityPresetEntity,
  ProjectEntity,
  ProviderCallEntity,
  ProviderEntity,
  RateLimitBucketEntity,
  RiskRecordEntity,
  SecurityRecordEntity,
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
  AgentTrustEntity,
  AutonomyDowngradeEntity,
  ApprovalItemEntity,
  AuditEntryEntity,
  ArtifactEntity,
  BudgetAlertLevelEntity,
  BudgetReservationEntity,
  CompanyEntity,
  CostRecordEntity,
  CostRollupEntity,
  DelegationRecordEntity,
  DepartmentEntity,
  DomainEventEntity,
  IdempotencyKeyEntity,
  LevelChangeEntity,
  LoginFailureEntity,
  MeetingEntity,
  MemoryEmbedderStateEntity,
  HeldRunEntity,
  OffboardingRecordEntity,
  AgentOnboardingEntity,
  HiringRequestEntity,
  ToolServerEntity,
  ParkedRunEntity,
  MessageChannelEntity,
  MessageEntity,
  PersonalityPresetEntity,
  ProjectEntity,
  ProviderCallEntity,
  ProviderEntity,
  RateLimitBucketEntity,
  RiskRecordEntity,
  SecurityRecordEntity,
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
export type { OffboardingStepLogEntry, TaskHandoverEntry } from './offboarding-record.entity';
export type { HiringCandidateEntry } from './hiring-request.entity';
export type { OnboardingStepEntry } from './agent-onboarding.entity';
export {
  type MemoryEntryEntity,
  MemoryEntryPostgresEntity,
  MemoryEntrySqliteEntity,
  type MemoryPendingVectorEntity,
  MemoryPendingVectorPostgresEntity,
  MemoryPendingVectorSqliteEntity,
  type OrgFactEntity,
  OrgFactPostgresEntity,
  OrgFactSqliteEntity,
} from './memory.entity';

/** Entities whose column types differ per dialect (binary vectors: blob on SQLite, bytea on Postgres). */
export const DIALECT_ENTITIES: Readonly<Record<'sqlite' | 'postgres', (new () => object)[]>> = {
  sqlite: [MemoryEntrySqliteEntity, OrgFactSqliteEntity, MemoryPendingVectorSqliteEntity],
  postgres: [MemoryEntryPostgresEntity, OrgFactPostgresEntity, MemoryPendingVectorPostgresEntity],
};
