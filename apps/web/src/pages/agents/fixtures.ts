import type { Schemas } from '@app/client';

/** Test data shaped as the API answers it. */
export function agentFixture(overrides: Partial<Schemas['AgentConfig']> = {}): Schemas['AgentConfig'] {
  return {
    id: 'a-1',
    name: 'Ada Lovelace',
    role: 'CEO',
    department: 'executive',
    level: 'c_suite',
    status: 'active',
    personality_preset: 'visionary_leader',
    personality: {},
    model: { provider: 'fake', model_id: 'mock-small', temperature: 0.7, max_tokens: 4096, fallback_model: null },
    tier: 'large',
    autonomy_level: null,
    budget_limit_monthly: null,
    memory: {},
    tools: {},
    authority: {},
    skills: {},
    hiring_date: '2026-11-01T09:00:00.000Z',
    ...overrides,
  };
}

export function departmentFixture(overrides: Partial<Schemas['Department']> = {}): Schemas['Department'] {
  return {
    name: 'executive',
    head: 'CEO',
    budget_percent: 20,
    teams: [],
    reporting_lines: [],
    autonomy_level: null,
    policies: {},
    ceremony_policy: null,
    agent_count: 1,
    ...overrides,
  };
}

/** The startup template's roster: a CEO, a CTO with two developers, a product manager. */
export const STARTUP_AGENTS = [
  agentFixture({ id: 'a-1', name: 'Ada Lovelace', role: 'CEO', department: 'executive' }),
  agentFixture({ id: 'a-2', name: 'Grace Hopper', role: 'CTO', department: 'engineering' }),
  agentFixture({
    id: 'a-3',
    name: 'Linus Torvalds',
    role: 'Full-Stack Developer',
    department: 'engineering',
    level: 'senior',
  }),
  agentFixture({
    id: 'a-4',
    name: 'Ken Thompson',
    role: 'Full-Stack Developer',
    department: 'engineering',
    level: 'mid',
  }),
  agentFixture({ id: 'a-5', name: 'Barbara Liskov', role: 'Product Manager', department: 'product', level: 'senior' }),
];

export const STARTUP_DEPARTMENTS = [
  departmentFixture({ name: 'executive', head: 'CEO', budget_percent: 20, agent_count: 1 }),
  departmentFixture({ name: 'engineering', head: 'CTO', budget_percent: 60, agent_count: 3 }),
  departmentFixture({ name: 'product', head: null, budget_percent: 20, agent_count: 1 }),
];

export const BUDGET_CONFIG: Schemas['BudgetConfig'] = {
  total_monthly: 100,
  alerts: { warn_at: 75, critical_at: 90, hard_stop_at: 100 },
  per_task_limit: 5,
  per_agent_daily_limit: 10,
  auto_downgrade: { enabled: false, threshold: 85, downgrade_map: [], boundary: 'task_assignment' },
  reset_day: 1,
  currency: 'EUR',
  risk_budget: {
    enabled: false,
    per_task_risk_limit: 5,
    per_agent_daily_risk_limit: 20,
    total_daily_risk_limit: 100,
    alerts: { warn_at: 75, critical_at: 90 },
  },
};

export function page<T>(items: T[], offset = 0, limit = 50, total = items.length) {
  return { data: items, pagination: { total, offset, limit } };
}
