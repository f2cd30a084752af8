import type { AgentLifecycleEventEntity, AgentEntity, TaskMetricEntity } from '@app/persistence';
import type { TaskMetricRecord } from '@app/domain';

import type { AgentConfigDto, CareerEventDto } from './dto/agent.dto';

/** Engine-typed parts of an agent kept in its `settings` column. */
export interface AgentSettings {
  model?: { temperature?: number; max_tokens?: number; fallback_model?: string | null };
  memory?: Record<string, unknown>;
  tools?: Record<string, unknown>;
  authority?: Record<string, unknown>;
  skills?: Record<string, unknown>;
}

export function defaultAgentSettings(): Required<AgentSettings> {
  return {
    model: { temperature: 0.7, max_tokens: 4096, fallback_model: null },
    memory: { type: 'session', retention_days: null },
    tools: { access_level: 'standard', allowed: [], denied: [] },
    authority: { can_approve: [], reports_to: null, can_delegate_to: [], budget_limit: 0 },
    skills: { primary: [], secondary: [] },
  };
}

export function toAgentConfig(agent: AgentEntity): AgentConfigDto {
  const settings = { ...defaultAgentSettings(), ...(agent.settings as AgentSettings) };
  return {
    id: agent.id,
    name: agent.name,
    role: agent.role,
    department: agent.department,
    level: agent.level,
    status: agent.status,
    personality_preset: agent.personalityPreset,
    personality: agent.personality,
    model: {
      provider: agent.modelProvider,
      model_id: agent.modelId,
      temperature: settings.model.temperature ?? 0.7,
      max_tokens: settings.model.max_tokens ?? 4096,
      fallback_model: settings.model.fallback_model ?? null,
    },
    tier: agent.modelTier,
    autonomy_level: agent.autonomyLevel,
    budget_limit_monthly: agent.budgetLimitMonthly,
    memory: settings.memory,
    tools: settings.tools,
    authority: settings.authority,
    skills: settings.skills,
    hiring_date: agent.hiringDate.toISOString(),
  };
}

export function toCareerEvent(event: AgentLifecycleEventEntity): CareerEventDto {
  return {
    event_type: event.eventType,
    timestamp: event.timestamp.toISOString(),
    description: event.details || `Agent ${event.eventType}`,
    initiated_by: event.initiatedBy,
    metadata: event.metadata,
  };
}

export function toTaskMetricRecord(row: TaskMetricEntity): TaskMetricRecord {
  return {
    agentId: row.agentId,
    taskId: row.taskId,
    taskType: row.taskType,
    startedAt: row.startedAt,
    completedAt: row.completedAt,
    isSuccess: row.isSuccess,
    durationSeconds: row.durationSeconds,
    costUsd: row.costUsd,
    turnsUsed: row.turnsUsed,
    tokensUsed: row.tokensUsed,
    qualityScore: row.qualityScore,
    collaborationScore: row.collaborationScore,
    complexity: row.complexity,
  };
}
