import type { Schemas } from '@app/client';

import type { Task } from './taskModel';

/** A task as the API returns it; `overrides` shape the one a test needs. */
export function aTask(overrides: Partial<Task> = {}): Task {
  return {
    id: 'task-1',
    title: 'Write the onboarding guide',
    description: 'A guide for new hires.',
    type: 'development',
    priority: 'medium',
    project: 'proj-1',
    created_by: 'ceo',
    assigned_to: null,
    reviewers: [],
    dependencies: [],
    artifacts_expected: [],
    acceptance_criteria: [],
    estimated_complexity: 'medium',
    budget_limit: 0,
    deadline: null,
    max_retries: 1,
    retry_count: 0,
    status: 'created',
    status_reason: null,
    result: null,
    output_withheld: false,
    parent_task_id: null,
    delegation_chain: [],
    task_structure: null,
    coordination_topology: 'auto',
    version: 1,
    started_at: null,
    completed_at: null,
    created_at: '2025-01-01T10:00:00.000Z',
    updated_at: '2025-01-01T10:00:00.000Z',
    ...overrides,
  };
}

export function anAgent(overrides: Partial<Schemas['AgentConfig']> = {}): Schemas['AgentConfig'] {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    name: 'Ada Lovelace',
    role: 'Backend Developer',
    department: 'engineering',
    level: 'senior',
    status: 'active',
    personality_preset: null,
    personality: {},
    model: { provider: 'fake', model_id: 'mock-small' } as Schemas['AgentConfig']['model'],
    tier: 'medium',
    autonomy_level: null,
    budget_limit_monthly: null,
    memory: {},
    tools: {},
    authority: {},
    skills: {},
    hiring_date: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

export function aProject(overrides: Partial<Schemas['Project']> = {}): Schemas['Project'] {
  return {
    id: 'proj-1',
    name: 'Website',
    description: '',
    team: [],
    lead: null,
    task_ids: [],
    deadline: null,
    budget: 0,
    status: 'active',
    created_at: '2025-01-01T00:00:00.000Z',
    updated_at: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

export function paged<T>(items: T[], total = items.length, offset = 0, limit = 50) {
  return { data: items, pagination: { total, offset, limit } };
}
