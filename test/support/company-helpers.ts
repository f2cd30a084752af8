import { randomUUID } from 'node:crypto';

import { CostRecordEntity, ProviderEntity, TaskMetricEntity } from '@app/persistence';
import { DatabaseService } from '@app/platform';
import { providerRow, taskMetricRow } from '@app/testing';

import { bearer } from './auth-helpers';
import type { TestApp } from './test-app';

export interface SeedModel {
  id: string;
  alias?: string;
  cost_per_1k_input?: number;
  cost_per_1k_output?: number;
  max_context?: number;
}

const DEFAULT_MODELS: SeedModel[] = [
  { id: 'small-model', alias: 'small', cost_per_1k_input: 0.1, cost_per_1k_output: 0.2, max_context: 8000 },
  { id: 'medium-model', alias: 'medium', cost_per_1k_input: 1, cost_per_1k_output: 2, max_context: 32000 },
  { id: 'large-model', alias: 'large', cost_per_1k_input: 5, cost_per_1k_output: 10, max_context: 128000 },
];

function dataSource(t: TestApp) {
  return t.app.get(DatabaseService).dataSource;
}

/**
 * Registers the fake model provider through the API as `mock` (no auth, one model `mock-small` at 1
 * and 2 per 1,000 tokens, so every call costs something), the way most engine specs start.
 */
export async function addMockProvider(
  t: TestApp,
  token: string,
  mock: { url: string },
  options: { alias?: string } = {},
): Promise<void> {
  const model = { id: 'mock-small', ...options, cost_per_1k_input: 1, cost_per_1k_output: 2, max_context: 8000 };
  await t.http
    .post('/api/v1/providers')
    .set(bearer(token))
    .send({ name: 'mock', gateway_provider: 'openai', auth_type: 'none', base_url: `${mock.url}/v1`, models: [model] })
    .expect(201);
}

/** A registered provider row, as the providers API stores it (no secrets). */
export async function seedProvider(t: TestApp, name = 'test-provider', models: SeedModel[] = DEFAULT_MODELS) {
  const now = new Date();
  const row = providerRow({
    name,
    models: models.map((m) => ({ cost_per_1k_input: 0, cost_per_1k_output: 0, max_context: 8000, ...m })),
    createdAt: now,
    updatedAt: now,
  });
  await dataSource(t).getRepository(ProviderEntity).insert(row);
}

function costRecordRow(agentId: string, overrides: Partial<CostRecordEntity>): CostRecordEntity {
  return {
    id: randomUUID(),
    agentId,
    taskId: null,
    provider: 'test-provider',
    model: 'medium-model',
    inputTokens: 100,
    outputTokens: 50,
    costUsd: 0.25,
    callCategory: 'productive',
    timestamp: new Date(),
    ...overrides,
  };
}

const BULK_CHUNK = 300;

/** One finished task run of an agent (what the work engine records). */
export async function seedTaskMetric(
  t: TestApp,
  agentId: string,
  overrides: Partial<TaskMetricEntity> = {},
): Promise<TaskMetricEntity> {
  const row = taskMetricRow({ agentId, ...overrides });
  await dataSource(t).getRepository(TaskMetricEntity).insert(row);
  return row;
}

/** `count` task runs at once; `overrides(i)` shapes the i-th (inserted in chunks). */
export async function seedTaskMetrics(
  t: TestApp,
  agentId: string,
  count: number,
  overrides: (index: number) => Partial<TaskMetricEntity> = () => ({}),
): Promise<void> {
  const rows = Array.from({ length: count }, (_, i) => taskMetricRow({ agentId, ...overrides(i) }));
  for (let i = 0; i < rows.length; i += BULK_CHUNK) {
    await dataSource(t)
      .getRepository(TaskMetricEntity)
      .insert(rows.slice(i, i + BULK_CHUNK));
  }
}

/** One model call's cost record. */
export async function seedCostRecord(
  t: TestApp,
  agentId: string,
  overrides: Partial<CostRecordEntity> = {},
): Promise<CostRecordEntity> {
  const row = costRecordRow(agentId, overrides);
  await dataSource(t).getRepository(CostRecordEntity).insert(row);
  return row;
}

/** `count` cost records at once; `overrides(i)` shapes the i-th (inserted in chunks). */
export async function seedCostRecords(
  t: TestApp,
  agentId: string,
  count: number,
  overrides: (index: number) => Partial<CostRecordEntity> = () => ({}),
): Promise<void> {
  const rows = Array.from({ length: count }, (_, i) => costRecordRow(agentId, overrides(i)));
  for (let i = 0; i < rows.length; i += BULK_CHUNK) {
    await dataSource(t)
      .getRepository(CostRecordEntity)
      .insert(rows.slice(i, i + BULK_CHUNK));
  }
}

/** POST /setup/company from a template; returns the response data. */
export async function createCompany(
  t: TestApp,
  ceoToken: string,
  template: string | null = 'startup',
  companyName = 'Acme Labs',
): Promise<{ agent_count: number; agents: Array<{ name: string; department: string; role: string }> }> {
  const res = await t.http
    .post('/api/v1/setup/company')
    .set(bearer(ceoToken))
    .send({ company_name: companyName, ...(template ? { template_name: template } : {}) })
    .expect(201);
  return (
    res.body as { data: { agent_count: number; agents: Array<{ name: string; department: string; role: string }> } }
  ).data;
}

/**
 * Another spelling of a name for case-insensitive lookups: upper case, unless the name does not
 * survive the round trip (a random name with 'ß' upper-cases to 'SS'), then the name itself.
 */
export function otherCase(name: string): string {
  const upper = name.toUpperCase();
  return upper.toLowerCase() === name.toLowerCase() ? upper : name;
}
