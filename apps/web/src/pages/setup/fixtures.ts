/** Canned answers of the setup endpoints, for the wizard's component tests. */
import type { Schemas } from '@app/client';

type Status = Schemas['SetupStatusResponse'];

export const STATUS: Record<'fresh' | 'signedUp' | 'withCompany' | 'withProvider' | 'done', Status> = {
  fresh: {
    needs_admin: true,
    needs_setup: true,
    has_company: false,
    has_agents: false,
    has_providers: false,
    has_name_locales: false,
    min_password_length: 12,
  },
  signedUp: {
    needs_admin: false,
    needs_setup: true,
    has_company: false,
    has_agents: false,
    has_providers: false,
    has_name_locales: false,
    min_password_length: 12,
  },
  withCompany: {
    needs_admin: false,
    needs_setup: true,
    has_company: true,
    has_agents: true,
    has_providers: false,
    has_name_locales: false,
    min_password_length: 12,
  },
  withProvider: {
    needs_admin: false,
    needs_setup: true,
    has_company: true,
    has_agents: true,
    has_providers: true,
    has_name_locales: false,
    min_password_length: 12,
  },
  done: {
    needs_admin: false,
    needs_setup: false,
    has_company: true,
    has_agents: true,
    has_providers: true,
    has_name_locales: false,
    min_password_length: 12,
  },
};

export const ME_CEO: Schemas['UserInfoResponse'] = {
  id: 'u-ceo',
  username: 'ceo',
  role: 'ceo',
  department: null,
  must_change_password: false,
  session_id: 's-1',
};

export const TEMPLATES: Schemas['TemplateInfoResponse'][] = [
  {
    name: 'startup',
    display_name: 'Tech Startup',
    description: 'A lean founding team.',
    source: 'builtin',
    tags: ['startup'],
    skill_patterns: ['web-development'],
    variables: [
      { name: 'company_name', description: 'Name', var_type: 'str', default: null, required: true },
      { name: 'budget', description: 'Monthly spending limit', var_type: 'float', default: 50, required: false },
    ],
    agent_count: 5,
    department_count: 3,
    autonomy_level: 'semi',
    workflow: 'agile_kanban',
  },
  {
    name: 'research_lab',
    display_name: 'Research Lab',
    description: 'Scientists and analysts.',
    source: 'builtin',
    tags: [],
    skill_patterns: [],
    variables: [],
    agent_count: 4,
    department_count: 2,
    autonomy_level: 'supervised',
    workflow: 'kanban',
  },
];

const BASE_PRESET: Pick<
  Schemas['ProviderPresetResponse'],
  | 'default_models'
  | 'supports_model_pull'
  | 'supports_model_delete'
  | 'supports_model_config'
  | 'candidate_urls'
  | 'default_base_url'
  | 'requires_base_url'
  | 'driver'
> = {
  default_models: [],
  supports_model_pull: false,
  supports_model_delete: false,
  supports_model_config: false,
  candidate_urls: [],
  default_base_url: null,
  requires_base_url: false,
  driver: 'openai_compatible',
};

export const PRESETS: Schemas['ProviderPresetResponse'][] = [
  {
    ...BASE_PRESET,
    name: 'openai',
    display_name: 'OpenAI',
    description: 'GPT models.',
    gateway_provider: 'openai',
    auth_type: 'api_key',
    supported_auth_types: ['api_key'],
  },
  {
    ...BASE_PRESET,
    name: 'lm-studio',
    display_name: 'LM Studio',
    description: 'Models served by LM Studio.',
    gateway_provider: 'openai',
    auth_type: 'none',
    supported_auth_types: ['none'],
    default_base_url: 'http://localhost:1234/v1',
    requires_base_url: true,
    candidate_urls: ['http://localhost:1234/v1'],
  },
];

export function provider(name: string, models: string[] = ['mock-small']): Schemas['ProviderResponse'] {
  return {
    name,
    driver: 'openai_compatible',
    gateway_provider: 'openai',
    family: null,
    auth_type: 'none',
    base_url: 'http://127.0.0.1:4000/v1',
    models: models.map((id) => ({
      id,
      alias: null,
      cost_per_1k_input: 0,
      cost_per_1k_output: 0,
      max_context: 8192,
      estimated_latency_ms: null,
      local_params: null,
    })),
    degradation: { strategy: 'fallback', fallback_providers: [], queue_max_wait_seconds: 30 },
    quota: {},
    has_api_key: false,
    has_oauth_credentials: false,
    has_custom_header: false,
    has_subscription_token: false,
    tos_accepted_at: null,
    oauth_token_url: null,
    oauth_client_id: null,
    oauth_scope: null,
    custom_header_name: null,
    preset_name: 'lm-studio',
    supports_model_pull: false,
    supports_model_delete: false,
    supports_model_config: false,
    version: 1,
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
  };
}

export function agent(name: string, extra: Partial<Schemas['SetupAgentSummary']> = {}): Schemas['SetupAgentSummary'] {
  return {
    name,
    role: 'Full-Stack Developer',
    department: 'engineering',
    level: 'senior',
    model_provider: null,
    model_id: null,
    tier: 'medium',
    personality_preset: 'pragmatic_builder',
    ...extra,
  };
}

export function page<T>(items: T[]) {
  return { data: items, pagination: { total: items.length, offset: 0, limit: 200 } };
}

export const STARTUP_DETAIL: Schemas['TemplateDetailResponse'] = {
  ...TEMPLATES[0],
  budget_monthly: 50,
  departments: [
    { name: 'engineering', budget_percent: 60, head_role: 'CTO' },
    { name: 'product', budget_percent: 25, head_role: null },
    { name: 'executive', budget_percent: 15, head_role: null },
  ],
  agents: [
    {
      name: null,
      role: 'CTO',
      department: 'engineering',
      level: 'c_suite',
      model_tier: 'large',
      personality_preset: 'visionary_leader',
    },
    {
      name: null,
      role: 'Backend Developer',
      department: 'engineering',
      level: 'senior',
      model_tier: 'medium',
      personality_preset: 'pragmatic_builder',
    },
    {
      name: null,
      role: 'Frontend Developer',
      department: 'engineering',
      level: 'mid',
      model_tier: 'medium',
      personality_preset: 'rapid_prototyper',
    },
    {
      name: null,
      role: 'Product Manager',
      department: 'product',
      level: 'senior',
      model_tier: 'medium',
      personality_preset: 'user_advocate',
    },
    {
      name: null,
      role: 'CEO',
      department: 'executive',
      level: 'c_suite',
      model_tier: 'large',
      personality_preset: 'strategic_planner',
    },
  ],
};
