import { type MemoryLevel, memoryLevelOf } from '@app/domain';
import { type AgentLifecycleEventEntity, type AgentEntity, rawIso, rawJson, rawNumber } from '@app/persistence';

import type { AgentConfigDto, CareerEventDto } from './dto/agent.dto';

/** Engine-typed parts of an agent kept in its `settings` column. */
export interface AgentSettings {
  model?: { temperature?: number; max_tokens?: number; fallback_model?: string | null };
  memory?: Record<string, unknown>;
  tools?: Record<string, unknown>;
  authority?: Record<string, unknown>;
  skills?: Record<string, unknown>;
}

/**
 * A new agent's settings. Its memory level (`memory.type`) is left unset: the agent then keeps the
 * company's `memory.default_level`, which the engine applies and the agent's view shows.
 */
export function defaultAgentSettings(): Required<AgentSettings> {
  return {
    model: { temperature: 0.7, max_tokens: 4096, fallback_model: null },
    memory: { retention_days: null },
    tools: { access_level: 'standard', allowed: [], denied: [] },
    authority: { can_approve: [], reports_to: null, can_delegate_to: [], budget_limit: 0 },
    skills: { primary: [], secondary: [] },
  };
}

/**
 * The agent's settings with every group complete: a stored group's fields over the group's defaults.
 * With `defaultLevel` (the company's `memory.default_level`), `memory.type` is the effective level
 * the engine uses: the agent's own when set, else that default; without it, as stored.
 */
export function agentSettingsOf(agent: { settings: unknown }, defaultLevel?: MemoryLevel): Required<AgentSettings> {
  const stored = (agent.settings ?? {}) as AgentSettings;
  const defaults = defaultAgentSettings();
  const memory = { ...defaults.memory, ...stored.memory };
  return {
    model: { ...defaults.model, ...stored.model },
    memory: defaultLevel === undefined ? memory : { ...memory, type: memoryLevelOf(stored, defaultLevel) },
    tools: { ...defaults.tools, ...stored.tools },
    authority: { ...defaults.authority, ...stored.authority },
    skills: { ...defaults.skills, ...stored.skills },
  };
}

/** The memory level an agent without its own `memory.type` keeps when no setting says otherwise. */
export const FALLBACK_MEMORY_LEVEL: MemoryLevel = 'persistent';

/** An agent as the API shows it; `memory.type` is its effective level (`defaultLevel` when unset). */
export function toAgentConfig(agent: AgentShown, defaultLevel: MemoryLevel = FALLBACK_MEMORY_LEVEL): AgentConfigDto {
  const settings = agentSettingsOf(agent, defaultLevel);
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
    hiring_date: typeof agent.hiringDate === 'string' ? agent.hiringDate : agent.hiringDate.toISOString(),
  };
}

/** The columns of `agents` a list page reads: what the response shows. */
export const AGENT_ROW_COLUMNS = [
  'id',
  'name',
  'role',
  'department',
  'level',
  'status',
  'personality_preset',
  'personality',
  'model_provider',
  'model_id',
  'model_tier',
  'autonomy_level',
  'budget_limit_monthly',
  'settings',
  'hiring_date',
] as const;

/** A raw `agents` row of {@link AGENT_ROW_COLUMNS}, as either dialect answers it. */
export type AgentRow = Record<(typeof AGENT_ROW_COLUMNS)[number], unknown>;

/** The fields of an agent its API view shows. */
type AgentShown = Omit<AgentEntity, 'nameKey' | 'position' | 'version' | 'hiringDate' | 'createdAt' | 'updatedAt'> & {
  hiringDate: Date | string;
};

/** A raw list row as the API shows it: the same as {@link toAgentConfig} of the entity. */
export function toAgentConfigFromRow(row: AgentRow, defaultLevel: MemoryLevel = FALLBACK_MEMORY_LEVEL): AgentConfigDto {
  return toAgentConfig(
    {
      id: row.id as string,
      name: row.name as string,
      role: row.role as string,
      department: row.department as string,
      level: row.level as string,
      status: row.status as string,
      personalityPreset: row.personality_preset as string | null,
      personality: rawJson(row.personality),
      modelProvider: row.model_provider as string | null,
      modelId: row.model_id as string | null,
      modelTier: row.model_tier as string,
      autonomyLevel: row.autonomy_level as string | null,
      budgetLimitMonthly: row.budget_limit_monthly === null ? null : rawNumber(row.budget_limit_monthly),
      settings: rawJson(row.settings),
      hiringDate: rawIso(row.hiring_date),
    },
    defaultLevel,
  );
}

/** A lifecycle event as the API shows it. */
export function toCareerEvent(event: AgentLifecycleEventEntity): CareerEventDto {
  return {
    event_type: event.eventType,
    timestamp: event.timestamp.toISOString(),
    description: event.details || `Agent ${event.eventType}`,
    initiated_by: event.initiatedBy,
    metadata: event.metadata,
  };
}
