import { HumanRole } from '@app/domain';
import { type PersistenceBackend, SecurityRecordEntity } from '@app/persistence';
import { DatabaseService } from '@app/platform';
import { eventually } from '@app/testing';

import {
  addMockProvider,
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

export interface SceneAgent {
  id: string;
  name: string;
}

const ENGINE_ENV = {
  SYNTHORG_RATE_LIMIT_AUTHENTICATED_PER_MINUTE: '100000',
  SYNTHORG_ENGINE_GRACE_SECONDS: '2',
  SYNTHORG_ENGINE_HEARTBEAT_SECONDS: '1',
};

/**
 * The company the security and autonomy specs run in: an app with the engine on the mock model, a
 * CEO, a project and four agents of the default template. The fields are set once start() has run
 * (in beforeAll); the helpers are arrow functions, so a spec may take them apart at once.
 */
export class SecurityScene {
  t!: TestApp;
  mock!: MockLlm;
  ceo!: string;
  project!: string;
  agent!: SceneAgent;
  other!: SceneAgent;
  third!: SceneAgent;
  productAgent!: SceneAgent & { department: string };
  private observerToken: string | null = null;

  /** `env` adds to the app's environment (a spec that blocks private addresses, say); `listen` opens a port. */
  constructor(
    private readonly backend: PersistenceBackend,
    private readonly options: { env?: Record<string, string>; listen?: boolean } = {},
  ) {}

  async start(): Promise<this> {
    this.mock = await startMockLlm();
    this.t = await startTestApp({
      backend: this.backend,
      env: { ...ENGINE_ENV, ...this.options.env },
      listen: this.options.listen === true,
    });
    const t = this.t;
    this.ceo = await setupCeo(t);
    // With private addresses blocked, the fake model's loopback address is trusted first.
    await t.http
      .post('/api/v1/providers/discovery-policy/entries')
      .set(bearer(this.ceo))
      .send({ host_port: new URL(this.mock.url).host })
      .expect(201);
    await addMockProvider(t, this.ceo, this.mock, { alias: 'small' });
    const company = await createCompany(t, this.ceo);
    const agents = (await t.http.get('/api/v1/agents').set(bearer(this.ceo)).expect(200)).body.data as Json[];
    const pick = (name: string) => {
      const row = agents.find((a) => a.name === name) as Json;
      return { id: row.id as string, name: row.name as string };
    };
    this.agent = pick(company.agents[0].name);
    this.other = pick(company.agents[1].name);
    this.third = pick(company.agents[2].name);
    this.productAgent = { ...pick(company.agents[4].name), department: company.agents[4].department };
    this.project = (await t.http.post('/api/v1/projects').set(bearer(this.ceo)).send({ name: 'Security' }).expect(201))
      .body.data.id as string;
    return this;
  }

  async close(): Promise<void> {
    await this.t.close();
    await this.mock.close();
  }

  /** A logged-in observer, made on first use. */
  readonly observer = async (): Promise<string> =>
    (this.observerToken ??= await userWithRole(this.t, this.ceo, HumanRole.Observer));

  readonly getTask = async (id: string): Promise<Json> =>
    (await this.t.http.get(`/api/v1/tasks/${id}`).set(bearer(this.ceo)).expect(200)).body.data as Json;

  readonly setSetting = (key: string, value: string) =>
    this.t.http.put(`/api/v1/settings/security/${key}`).set(bearer(this.ceo)).send({ value });

  /** The security records of a task, oldest first. */
  readonly records = (taskId: string) =>
    this.t.app
      .get(DatabaseService)
      .dataSource.getRepository(SecurityRecordEntity)
      .find({
        where: { taskId },
        order: { createdAt: 'ASC' },
      });

  /** Assigns a task, waits until it completes, and returns it with the tool replies the model read. */
  readonly run = async (
    assignee = this.agent.name,
    complexity = 'medium',
  ): Promise<{ task: Json; replies: string[] }> => {
    const created = await this.t.http
      .post('/api/v1/tasks')
      .set(bearer(this.ceo))
      .send({
        title: 'Tidy the repository',
        description: 'Look around and tidy up.',
        type: 'development',
        project: this.project,
        created_by: 'ceo',
        assigned_to: assignee,
        estimated_complexity: complexity,
      })
      .expect(201);
    const task = await eventually(
      () => this.getTask(created.body.data.id as string),
      (x) => x.status === 'completed',
    );
    const chats = this.mock.requests.filter((r) => r.path.endsWith('/chat/completions'));
    const last = chats[chats.length - 1].body as Json;
    const replies = (last.messages as Json[]).filter((m) => m.role === 'tool').map((m) => m.content as string);
    return { task, replies };
  };
}
