import type { Test } from 'supertest';

import { AgentEntity } from '@app/persistence';
import type { PersistenceBackend } from '@app/persistence';
import { DatabaseService, EventBus, type ReceivedEvent } from '@app/platform';

import {
  bearer,
  createCompany,
  type MockLlm,
  setupCeo,
  startMockLlm,
  startTestApp,
  type TestApp,
  userWithRole,
} from '../support';

export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export const HIGH_LIMITS = {
  SYNTHORG_RATE_LIMIT_AUTH_PER_MINUTE: '10000',
  SYNTHORG_RATE_LIMIT_ANONYMOUS_PER_MINUTE: '10000',
  SYNTHORG_RATE_LIMIT_AUTHENTICATED_PER_MINUTE: '100000',
};

/** The roles the specs log in as (a manager of engineering). */
export type SceneRole = 'ceo' | 'manager' | 'observer' | 'pair_programmer' | 'board_member';

/**
 * What the agent edit specs run against: the fake model server registered as provider `mock`
 * (models mock-small and mock-medium, aliases small and medium), the startup company (executive
 * 20%, engineering 60%, product 20% of the budget), a CEO, a manager of engineering, an observer, a
 * pair programmer and a board member, and every event the app publishes on this replica.
 */
export class AgentEditsScene {
  t!: TestApp;
  mock!: MockLlm;
  readonly tokens = {} as Record<SceneRole, string>;
  /** The startup roster by role: CEO, CTO, two developers (senior, mid), product manager. */
  agents!: { chief: Json; cto: Json; senior: Json; mid: Json; pm: Json };
  readonly events: ReceivedEvent[] = [];

  constructor(
    private readonly backend: PersistenceBackend,
    private readonly env: Record<string, string> = {},
  ) {}

  async start(): Promise<this> {
    this.mock = await startMockLlm();
    this.t = await startTestApp({ backend: this.backend, env: { ...HIGH_LIMITS, ...this.env }, listen: true });
    this.t.app.get(EventBus).subscribe((event) => {
      if (event.origin === 'local') {
        this.events.push(event);
      }
    });
    const ceo = await setupCeo(this.t);
    this.tokens.ceo = ceo;
    this.tokens.manager = await userWithRole(this.t, ceo, 'manager', 'manager', 'engineering');
    for (const role of ['observer', 'pair_programmer', 'board_member'] as const) {
      this.tokens[role] = await userWithRole(this.t, ceo, role);
    }
    await this.t.http
      .post('/api/v1/providers')
      .set(bearer(ceo))
      .send({
        name: 'mock',
        gateway_provider: 'openai',
        auth_type: 'none',
        base_url: `${this.mock.url}/v1`,
        models: [
          { id: 'mock-small', alias: 'small', cost_per_1k_input: 1, cost_per_1k_output: 2, max_context: 8000 },
          { id: 'mock-medium', alias: 'medium', cost_per_1k_input: 2, cost_per_1k_output: 4, max_context: 8000 },
        ],
      })
      .expect(201);
    await createCompany(this.t, ceo, 'startup');
    const roster = (await this.t.http.get('/api/v1/agents').set(bearer(ceo)).expect(200)).body.data as Json[];
    const [chief, cto, senior, mid, pm] = roster;
    this.agents = { chief, cto, senior, mid, pm };
    return this;
  }

  async close(): Promise<void> {
    await this.t?.close();
    await this.mock?.close();
  }

  /** PATCH /agents/{name} as `role` (the CEO by default), with an If-Match header when given. */
  readonly patch = (name: string, body: unknown, role: SceneRole = 'ceo', ifMatch?: string): Test => {
    const req = this.t.http.patch(`/api/v1/agents/${encodeURIComponent(name)}`).set(bearer(this.tokens[role]));
    return (ifMatch === undefined ? req : req.set('If-Match', ifMatch)).send(body as object);
  };

  /** GET /agents/{name}: the agent and its ETag. */
  readonly get = async (name: string): Promise<{ agent: Json; etag: string }> => {
    const res = await this.t.http
      .get(`/api/v1/agents/${encodeURIComponent(name)}`)
      .set(bearer(this.tokens.ceo))
      .expect(200);
    return { agent: res.body.data as Json, etag: res.headers.etag };
  };

  /** GET /agents/{name}/history. */
  readonly history = async (name: string): Promise<Json[]> =>
    (
      await this.t.http
        .get(`/api/v1/agents/${encodeURIComponent(name)}/history`)
        .set(bearer(this.tokens.observer))
        .expect(200)
    ).body.data as Json[];

  /** Sets a stored status directly (firing is not an edit: a terminated agent is made here). */
  readonly setStatus = async (id: string, status: string): Promise<void> => {
    await this.t.app.get(DatabaseService).dataSource.getRepository(AgentEntity).update({ id }, { status });
  };

  /** PUT one setting as the CEO. */
  readonly setting = async (namespace: string, key: string, value: string): Promise<void> => {
    await this.t.http
      .put(`/api/v1/settings/${namespace}/${key}`)
      .set(bearer(this.tokens.ceo))
      .send({ value })
      .expect(200);
  };

  /** The `agents` channel events published since `from` (an index into `events`). */
  readonly agentEvents = (from = 0): Array<{ type: string; payload: Json }> =>
    this.events
      .slice(from)
      .filter((e) => e.channel === 'agents')
      .map((e) => ({ type: e.event_type, payload: e.payload }));
}
