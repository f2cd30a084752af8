import { randomUUID } from 'node:crypto';

import {
  type AgentEntity,
  type AgentLifecycleEventEntity,
  COMPANY_SINGLETON_ID,
  type CompanyEntity,
  type DepartmentEntity,
  type ProjectEntity,
  type ProviderEntity,
  type SessionEntity,
  type TaskMetricEntity,
  type UserEntity,
} from '@app/persistence';

// Stored rows with plausible defaults, for tests that work on the tables directly; the overrides
// shape each one. Ids and name keys derive from the name so two rows differ by name alone.
const AT = new Date('2026-01-01T00:00:00.000Z');

/** A roster agent, active, in `engineering`. */
export function agentRow(overrides: Partial<AgentEntity> = {}): AgentEntity {
  const name = overrides.name ?? 'Ada Lovelace';
  return {
    id: `agent-${name.toLowerCase().replace(/\W+/g, '-')}`,
    name,
    nameKey: name.trim().toLowerCase(),
    role: 'Backend Developer',
    department: 'engineering',
    level: 'mid',
    status: 'active',
    position: 0,
    personalityPreset: null,
    personality: {},
    modelProvider: null,
    modelId: null,
    modelTier: 'medium',
    autonomyLevel: null,
    budgetLimitMonthly: null,
    settings: {},
    version: 1,
    hiringDate: AT,
    createdAt: AT,
    updatedAt: AT,
    ...overrides,
  };
}

/** One entry of an agent's career log. */
export function agentEventRow(overrides: Partial<AgentLifecycleEventEntity> = {}): AgentLifecycleEventEntity {
  return {
    id: 'event-1',
    agentId: 'agent-ada-lovelace',
    agentName: 'Ada Lovelace',
    eventType: 'hired',
    timestamp: AT,
    initiatedBy: 'ceo',
    details: '',
    metadata: {},
    ...overrides,
  };
}

/** The company row (its id is the fixed singleton id). */
export function companyRow(overrides: Partial<CompanyEntity> = {}): CompanyEntity {
  return {
    id: COMPANY_SINGLETON_ID,
    name: 'Acme Labs',
    description: '',
    type: 'startup',
    templateName: 'startup',
    autonomyLevel: 'semi',
    budgetMonthly: 100,
    currency: 'EUR',
    communicationPattern: 'hybrid',
    workflow: 'agile_kanban',
    ceremonyStrategy: null,
    version: 1,
    createdAt: AT,
    updatedAt: AT,
    ...overrides,
  };
}

/** A department without a head or ceremony policy, version 1. */
export function departmentRow(overrides: Partial<DepartmentEntity> = {}): DepartmentEntity {
  const name = overrides.name ?? 'Engineering';
  return {
    id: `dept-${name.toLowerCase().replace(/\W+/g, '-')}`,
    name,
    nameKey: name.trim().toLowerCase(),
    position: 0,
    head: null,
    budgetPercent: 0,
    autonomyLevel: null,
    teams: [],
    reportingLines: [],
    policies: {},
    ceremonyPolicy: null,
    version: 1,
    createdAt: AT,
    updatedAt: AT,
    ...overrides,
  };
}

/** An active project without a lead. */
export function projectRow(overrides: Partial<ProjectEntity> = {}): ProjectEntity {
  const name = overrides.name ?? 'Apollo';
  return {
    id: `proj-${name.toLowerCase().replace(/\W+/g, '-')}`,
    name,
    nameKey: name.trim().toLowerCase(),
    description: '',
    team: [],
    lead: null,
    taskIds: [],
    deadline: null,
    budget: 0,
    status: 'active',
    createdAt: AT,
    updatedAt: AT,
    ...overrides,
  };
}

/** A registered provider without secrets, version 1, serving one model. */
export function providerRow(overrides: Partial<ProviderEntity> = {}): ProviderEntity {
  return {
    name: 'test-provider',
    authType: 'none',
    baseUrl: 'http://127.0.0.1:1',
    gatewayProvider: null,
    family: null,
    preset: null,
    models: [{ id: 'medium-model', alias: 'medium', cost_per_1k_input: 1, cost_per_1k_output: 2, max_context: 32000 }],
    degradation: { strategy: 'alert' },
    quota: null,
    oauthTokenUrl: null,
    oauthClientId: null,
    oauthScope: null,
    customHeaderName: null,
    secrets: null,
    secretsKeyId: null,
    tosAcceptedAt: null,
    version: 1,
    createdAt: AT,
    updatedAt: AT,
    ...overrides,
  };
}

/** An account that has changed its first password (the hash is not a real one). */
export function userRow(overrides: Partial<UserEntity> = {}): UserEntity {
  const username = overrides.username ?? 'alice';
  return {
    id: `user-${username}`,
    username,
    passwordHash: '$argon2id$not-a-real-hash',
    role: 'observer',
    mustChangePassword: false,
    department: null,
    createdAt: AT,
    updatedAt: AT,
    ...overrides,
  };
}

/** A live session of `user-alice`, expiring a day after 2026-01-01. */
export function sessionRow(overrides: Partial<SessionEntity> = {}): SessionEntity {
  return {
    id: 'session-1',
    userId: 'user-alice',
    ipAddress: '127.0.0.1',
    userAgent: 'jest',
    createdAt: AT,
    lastActiveAt: AT,
    expiresAt: new Date(AT.getTime() + 86_400_000),
    revokedAt: null,
    ...overrides,
  };
}

/** A successful run's metric (a minute long, completed now unless `completedAt` says otherwise). */
export function taskMetricRow(overrides: Partial<TaskMetricEntity> = {}): TaskMetricEntity {
  const completedAt = overrides.completedAt ?? new Date();
  return {
    id: randomUUID(),
    agentId: 'agent-ada-lovelace',
    taskId: `task-${randomUUID().slice(0, 8)}`,
    taskType: 'development',
    startedAt: new Date(completedAt.getTime() - 60_000),
    completedAt,
    isSuccess: true,
    durationSeconds: 60,
    costUsd: 0.5,
    turnsUsed: 4,
    tokensUsed: 1200,
    qualityScore: 8,
    collaborationScore: null,
    complexity: 'medium',
    ...overrides,
  };
}

/**
 * An entity as a raw list row (snake_case columns, values as the entity holds them), for unit specs
 * of services whose repositories read pages through pagedQuery.
 */
export function rawRowOf<R>(entity: object): R {
  return Object.fromEntries(
    Object.entries(entity).map(([key, value]) => [key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), value]),
  ) as R;
}
