import { OFFBOARDING_STEPS, type OffboardingStep } from '@app/domain';
import {
  AgentLifecycleEventEntity,
  AuditEntryEntity,
  MessageEntity,
  OffboardingRecordEntity,
  type PersistenceBackend,
} from '@app/persistence';
import { DatabaseService } from '@app/platform';
import { actorContext, createTestDatabase, eventually, type TestDatabase, testBackends } from '@app/testing';

import type { TestApp } from '../support';
import { OffboardAgentUseCase } from '../../apps/api/src/modules/offboarding/offboard-agent.use-case';
import { OffboardingService } from '../../apps/api/src/modules/offboarding/offboarding.service';
import { type Json, OffboardingScene } from './offboarding-scene';

jest.setTimeout(120_000);

const CEO = actorContext({ username: 'ceo' });

/** What the pipeline wrote, read straight from the database: each must be there exactly once. */
async function written(app: TestApp, agentId: string) {
  const source = app.app.get(DatabaseService).dataSource;
  const events = await source.getRepository(AgentLifecycleEventEntity).findBy({ agentId });
  const notices = await source.getRepository(MessageEntity).findBy({ type: 'hr_notification' });
  const audit = await source.getRepository(AuditEntryEntity).findBy({ action: 'agent.offboarded' });
  const record = await source.getRepository(OffboardingRecordEntity).findOneByOrFail({ agentId });
  return {
    fired: events.filter((e) => e.eventType === 'fired').length,
    offboarded: events.filter((e) => e.eventType === 'offboarded').length,
    notices: notices.length,
    audited: audit.length,
    logged: record.stepLog.map((entry) => entry.step),
  };
}

/**
 * A scene whose engineer has a task in progress (its model call held by the fake) and one waiting,
 * fired and offboarded up to `until`, then stopped: a crash between two steps.
 */
async function stoppedAfter(backend: PersistenceBackend, db: TestDatabase, until: OffboardingStep) {
  const scene = await OffboardingScene.start(backend, db);
  const fired = scene.engineers[1];
  scene.mock.enqueue({ kind: 'hang' });
  const running = await scene.assign(fired.name, { priority: 'medium' });
  await scene.running(running.id as string, 1);
  const waiting = await scene.assign(fired.name, { priority: 'low' });
  const begun = await scene.t.app.get(OffboardingService).begin(CEO, fired.name, { reason: 'budget', details: 'Cut.' });
  const halfway = await scene.t.app.get(OffboardAgentUseCase).execute(begun.id, { until });
  expect(halfway).toMatchObject({ step: until, completedAt: null });
  await scene.t.close();
  scene.mock.reset();
  return { scene, fired, tasks: [running.id as string, waiting.id as string] };
}

async function expectFinishedOnce(scene: OffboardingScene, app: TestApp, fired: Json, tasks: string[]) {
  const record = (await scene.get(`/agents/${fired.name}/offboarding`, scene.ceo, app).expect(200)).body.data as Json;
  expect(record).toMatchObject({ completed_at: expect.any(String), tasks_reassigned: tasks });
  expect(record.steps.map((s: Json) => s.state)).toEqual(['done', 'done', 'done', 'done', 'skipped', 'done', 'done']);
  expect(record.steps[5].detail).toBe('posted to #engineering');
  expect(await written(app, fired.id as string)).toEqual({
    fired: 1,
    offboarded: 1,
    notices: 1,
    audited: 1,
    logged: [...OFFBOARDING_STEPS],
  });
  for (const [i, id] of tasks.entries()) {
    // Raised one step, once; handed to a colleague, whose run finishes it.
    const done = await eventually(
      () => scene.task(id, app),
      (task) => task.status === 'completed',
      30_000,
    );
    expect(done.priority).toBe(['high', 'medium'][i]);
    expect(done.assigned_to).not.toBe(fired.name);
  }
}

describe.each(testBackends())('offboarding resumed after a crash on %s', (backend) => {
  let db: TestDatabase;
  let scene: OffboardingScene | null = null;
  let apps: TestApp[] = [];

  beforeEach(async () => {
    db = await createTestDatabase(backend);
  });

  afterEach(async () => {
    for (const app of apps.splice(0)) {
      await app.close();
    }
    await scene?.mock.close();
    scene = null;
    await db.drop();
  });

  it.each<OffboardingStep>(['terminated', 'tasks_interrupted', 'team_notified'])(
    'should finish a pipeline stopped after %s at the next start, doing no step twice',
    async (until) => {
      const stopped = await stoppedAfter(backend, db, until);
      scene = stopped.scene;
      // The restart's resume hook runs the steps left, before the app answers.
      apps = [await scene.open(backend)];
      await expectFinishedOnce(scene, apps[0], stopped.fired, stopped.tasks);
    },
  );

  if (backend === 'postgres') {
    it('should run the steps left once when two replicas start at once on the same database', async () => {
      const stopped = await stoppedAfter(backend, db, 'tasks_interrupted');
      scene = stopped.scene;
      apps = await Promise.all([scene.open(backend), scene.open(backend)]);
      await expectFinishedOnce(scene, apps[0], stopped.fired, stopped.tasks);
      await expectFinishedOnce(scene, apps[1], stopped.fired, stopped.tasks);
    });
  }
});
