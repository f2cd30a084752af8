/** Seniority from lowest to highest; "intern" is folded into junior. */
export const SENIORITY_LEVELS = ['junior', 'mid', 'senior', 'lead', 'principal', 'director', 'vp', 'c_suite'] as const;
export type SeniorityLevel = (typeof SENIORITY_LEVELS)[number];

/** Autonomy levels, most to least autonomous. */
export const AUTONOMY_LEVELS = ['full', 'semi', 'supervised', 'locked'] as const;
export type AutonomyLevel = (typeof AUTONOMY_LEVELS)[number];
export const DEFAULT_AUTONOMY_LEVEL: AutonomyLevel = 'semi';

export const AGENT_STATUSES = ['active', 'onboarding', 'on_leave', 'terminated'] as const;
export type AgentStatus = (typeof AGENT_STATUSES)[number];

/** The standard departments; companies may add custom names. */
export const STANDARD_DEPARTMENTS = [
  'executive',
  'product',
  'design',
  'engineering',
  'quality_assurance',
  'data_analytics',
  'operations',
  'creative_marketing',
  'security',
] as const;
export const DEFAULT_DEPARTMENT = 'engineering';

/** Model size a template asks for; the setup wizard matches it against the configured providers. */
export const MODEL_TIERS = ['small', 'medium', 'large'] as const;
export type ModelTier = (typeof MODEL_TIERS)[number];

export const WORKFLOWS = ['kanban', 'agile_kanban'] as const;
export type Workflow = (typeof WORKFLOWS)[number];

export const COMMUNICATION_PATTERNS = ['hybrid', 'hierarchical', 'event_driven', 'meeting_based', 'flat'] as const;
export type CommunicationPattern = (typeof COMMUNICATION_PATTERNS)[number];

export const CEREMONY_STRATEGIES = [
  'task_driven',
  'calendar',
  'hybrid',
  'event_driven',
  'budget_driven',
  'throughput_adaptive',
  'external_trigger',
  'milestone_driven',
] as const;
export type CeremonyStrategy = (typeof CEREMONY_STRATEGIES)[number];
