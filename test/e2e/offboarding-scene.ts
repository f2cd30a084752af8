import { type PersistenceBackend } from '@app/persistence';
import { eventually, type TestDatabase } from '@app/testing';

import {
  addMockProvider,
  bearer,
  createCompany,
  type MockLlm,
  setupCeo,
  startMockLlm,
  startTestApp,
  type TestApp,
} from '../support';

export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface SceneAgent {
  id: string;
  name: string;
  department: string;
}

/** The engine on, one run per agent at a time (a second task of an agent waits, assigned). */
export const OFFBOARDING_ENV = {
  SYNTHORG_RATE_LIMIT_AUTHENTICATED_PER_MINUTE: '100000',
  SYNTHORG_ENGINE_GRACE_SECONDS: '2',
  SYNTHORG_ENGINE_HEARTBEAT_SECONDS: '1',
  SYNTHORG_ENGINE_AGENT_CONCURRENCY: '1',
};

/**
 * The company the firing specs run in: the startup template (engineering: a CTO and two developers;
 * product: one product manager), the engine on the fake model, a CEO and a project. `open` starts a
 * further app on the same database (a restart, a second replica) with the same people and ids.
 */
export class OffboardingScene {
  t!: TestApp;
  ceo!: string;
  project!: string;
  /** The engineering department in roster order. */
  engineers!: SceneAgent[];
  productManager!: SceneAgent;

  private constructor(readonly mock: MockLlm) {}

  static async start(backend: PersistenceBackend, database?: TestDatabase): Promise<OffboardingScene> {
    const scene = new OffboardingScene(await startMockLlm());
    scene.t = await startTestApp({ backend, env: OFFBOARDING_ENV, database });
    scene.ceo = await setupCeo(scene.t);
    await addMockProvider(scene.t, scene.ceo, scene.mock, { alias: 'small' });
    await createCompany(scene.t, scene.ceo);
    scene.project = (await scene.post('/projects', { name: 'Offboarding' }).expect(201)).body.data.id as string;
    const agents = (await scene.get('/agents').expect(200)).body.data as Json[];
    const shown = (a: Json): SceneAgent => ({ id: a.id, name: a.name, department: a.department });
    scene.engineers = agents.filter((a) => a.department === 'engineering').map(shown);
    scene.productManager = shown(agents.find((a) => a.department === 'product') as Json);
    return scene;
  }

  /** Another app on this scene's database, with its people (a restart after close(), or a second replica). */
  async open(backend: PersistenceBackend): Promise<TestApp> {
    return startTestApp({ backend, env: OFFBOARDING_ENV, database: this.t.db });
  }

  get = (path: string, token = this.ceo, app = this.t) => app.http.get(`/api/v1${path}`).set(bearer(token));

  post = (path: string, body: Json, token = this.ceo, app = this.t) =>
    app.http.post(`/api/v1${path}`).set(bearer(token)).send(body);

  fire = (name: string, body: Json = { reason: 'performance' }, token = this.ceo) =>
    this.post(`/agents/${encodeURIComponent(name)}/fire`, body, token);

  /** A task assigned to `assignee` (the engine starts its run). */
  assign = async (assignee: string, extra: Json = {}): Promise<Json> =>
    (
      await this.post('/tasks', {
        title: 'Write notes',
        description: 'Write notes.md',
        type: 'development',
        project: this.project,
        created_by: 'ceo',
        assigned_to: assignee,
        ...extra,
      }).expect(201)
    ).body.data as Json;

  task = async (id: string, app = this.t): Promise<Json> =>
    (await this.get(`/tasks/${id}`, this.ceo, app).expect(200)).body.data as Json;

  chatCalls = (): number => this.mock.requests.filter((r) => r.path.endsWith('/chat/completions')).length;

  /** Waits until the task's run is in progress and its model call is out (the fake holds it). */
  async running(taskId: string, calls: number): Promise<void> {
    await eventually(
      () => Promise.resolve(this.chatCalls()),
      (n) => n >= calls,
    );
    await eventually(
      () => this.task(taskId),
      (task) => task.status === 'in_progress',
    );
  }

  async close(): Promise<void> {
    await this.t.close();
    await this.mock.close();
  }
}
