import type { TaskStatus } from '../tasks';

/*
 * Payloads are type aliases, not interfaces: an alias is assignable to a plain JSON object type
 * (`Record<string, unknown>`), which is what the bus carries and stores.
 */

/**
 * A resource as its REST representation renders it (the response DTO, owned by the API): the
 * catalogue pins only its id, so the DTO stays the one definition of the rest.
 */
export type ResourceSnapshot = { readonly id: string };

/** `tasks`: every persisted task change, with the task as the API renders it. */
export type TaskChangedPayload = {
  task_id: string;
  status: TaskStatus;
  /** null on creation. */
  previous_status: TaskStatus | null;
  /** A username, an agent name, or `engine`. */
  requested_by: string;
  version: number;
  task: ResourceSnapshot;
};

/**
 * `tasks`: a coordination of a parent task started, completed or failed. `phase` and `error` name the
 * failing phase (coordination_failed); the totals are set once the run ended.
 */
export type CoordinationEventPayload = {
  parent_task_id: string;
  requested_by: string;
  topology: string | null;
  subtask_ids: string[];
  wave_count: number;
  phase: string | null;
  error: string | null;
  total_duration_seconds: number | null;
  is_success: boolean | null;
};

/**
 * `agents`: an agent hired or edited, as the API renders it. An edit through the agent's own route
 * names the parts it changed (`model`, `department`, …) and who asked.
 */
export type AgentChangedPayload = { agent: ResourceSnapshot; changed?: string[]; requested_by?: string };

/**
 * `agents`: an agent moved one level up or down (`agent.promoted`, `agent.demoted`), with who
 * decided it and the approval item when a person did.
 */
export type AgentLevelChangedPayload = {
  agent: ResourceSnapshot;
  old_level: string;
  new_level: string;
  decided_by: string;
  approval_id: string | null;
};

/** `agents`: the CEO released a terminated agent's name for reuse. */
export type AgentNameReleasedPayload = { agent_id: string; name: string; released_by: string };

/** `agents`: an agent went on leave or came back (sent beside `agent.updated`). */
export type AgentStatusChangedPayload = {
  agent: ResourceSnapshot;
  status: string;
  previous_status: string;
  requested_by: string;
};

/**
 * `agents`: an agent fired (its offboarding began) or offboarded (it ended), with the agent and its
 * offboarding record as the API renders them.
 */
export type AgentOffboardingPayload = {
  agent: ResourceSnapshot;
  offboarding: { readonly firing_request_id: string };
};

/** `agents`: a hiring request filed, decided, given a candidate or instantiated, as the API renders it. */
export type HiringRequestChangedPayload = {
  request: ResourceSnapshot;
  status: string;
  requested_by: string;
};

/** `agents`: a step of a new agent's onboarding checklist ran (done or failed, with the reason). */
export type OnboardingStepPayload = {
  agent: ResourceSnapshot;
  step: string;
  state: string;
  reason: string | null;
};

/** `budget`: one model call's cost record (amounts in the configured currency). */
export type CostRecordedPayload = {
  agent_id: string;
  task_id: string | null;
  provider: string;
  model: string;
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  cost_usd: number;
  call_category: string;
  /** ISO 8601. */
  timestamp: string;
};

/**
 * `budget`: a run a budget limit stopped (`run.held`), its task held with the reason; or that task
 * queued again once the limit stopped binding (`run.released`).
 */
export type RunHeldPayload = {
  task_id: string;
  agent_id: string;
  /** `budget_exhausted`. */
  reason: string;
  /** The limit that refused (`monthly`, `department`, `agent_daily`, `task`, ...), or null. */
  limit: string | null;
  code: number;
  detail: string;
};

/** `approvals`: an approval item created, decided, expired or escalated, as the API renders it. */
export type ApprovalChangedPayload = { approval: ResourceSnapshot };
/** `messages`: a message posted to a channel, as the API renders it. */
export type MessageSentPayload = { channel: string; message: ResourceSnapshot };

/** `artifacts`: an artifact created, deleted or given new content, as the API renders it. */
/** `meetings`: a meeting started, completed or failed (budget_exhausted included), as the API renders it. */
export type MeetingChangedPayload = {
  meeting_id: string;
  meeting_type_name: string;
  status: string;
  meeting: { readonly meeting_id: string };
};
export type ArtifactChangedPayload = { artifact_id: string; task_id: string; artifact: ResourceSnapshot };
/** `budget`: spend crossed an alert threshold upwards (once per crossing, across replicas). */
export type BudgetAlertPayload = {
  /** warning, critical or hard_stop. */
  level: string;
  previous_level: string;
  /** What the threshold is about: `monthly` (the company's billing period). */
  scope: string;
  used_percent: number;
  spent: number;
  total_monthly: number;
  currency: string;
  /** ISO 8601 start of the billing period. */
  period_start: string;
};

/** `budget`: risk taken crossed a daily risk limit's alert threshold upwards (once per crossing). */
export type RiskAlertPayload = {
  /** warning, critical or exhausted. */
  level: string;
  previous_level: string;
  /** `agent_daily` (one agent's day) or `total_daily` (every agent's day). */
  scope: string;
  agent_id: string | null;
  risk_units: number;
  limit: number;
  used_percent: number;
  /** `YYYY-MM-DD` (UTC). */
  day: string;
};

/** `projects`: a project created, as the API renders it. */
export type ProjectCreatedPayload = { project: ResourceSnapshot };

/** `company`: the company created or replaced by the setup wizard. */
export type CompanyChangedPayload = { name: string; template_name: string | null };

/** `company`: setup completed; the reinitialisation steps that ran. */
export type SetupCompletedPayload = { steps: string[] };

/** `company`: a personality preset created, updated or deleted. */
export type PersonalityChangedPayload = { name: string; source: 'builtin' | 'custom' };

/** `departments`: a department created. */
export type DepartmentCreatedPayload = { name: string };

/** `departments`: a department's ceremony policy set (null: cleared). */
export type DepartmentUpdatedPayload = { name: string; ceremony_policy: Record<string, unknown> | null };

/** `providers`: a provider created, updated, deleted or given a new model list, and by whom. */
export type ProviderChangedPayload = {
  name: string;
  actor: string;
  /** provider.models_changed only: why the list was replaced (discovery, an edit). */
  reason?: string;
  /** provider.models_changed only. */
  model_count?: number;
};

/** `internal.tools`: a tool server changed; `change` says how (its row is the truth: replicas re-read it). */
export type ToolServerChangedPayload = {
  name: string;
  actor: string;
  change: 'created' | 'updated' | 'deleted' | 'tools_listed';
};

/** `internal.auth`: sessions evicted on one replica, to be evicted from the others' caches. */
export type SessionsEvictedPayload = { session_ids: string[]; user_id: string | null };

/**
 * `internal.settings`: a setting's stored value changed (written or removed). The value never
 * travels (it may be sensitive): receivers re-read the setting.
 */
export type SettingChangedPayload = { namespace: string; key: string };

/** `internal.backup`: a restore replaced these components; other replicas drop what they cached of them. */
export type BackupRestoredPayload = { backup_id: string; components: string[] };

/** `internal.memory`: a memory entry or org fact was stored or removed; other replicas update their index. */
export type MemoryChangedPayload = { id: string; agent_id: string | null };
