import { randomUUID } from 'node:crypto';

import { delegationFingerprint, ErrorCode } from '@app/domain';
import { AgentEntity, DelegationRecordEntity } from '@app/persistence';
import { DatabaseService } from '@app/platform';
import { eventually, testBackends } from '@app/testing';

import { DelegationService } from '../../apps/api/src/modules/delegation';
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

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const S = '/api/v1/settings/coordination';

jest.setTimeout(90_000);

describe.each(testBackends())('delegation on %s', (backend) => {
  let t: TestApp;
  let mock: MockLlm;
  let ceo: string;
  let project: string;
  /** The startup template's agents by role: the CEO heads executive, the CTO engineering (the developers). */
  const byRole: Record<string, AgentEntity> = {};
  let devs: AgentEntity[];

  beforeAll(async () => {
    mock = await startMockLlm();
    t = await startTestApp({ backend, listen: true, env: { SYNTHORG_ENGINE_HEARTBEAT_SECONDS: '1' } });
    ceo = await setupCeo(t);
    await addMockProvider(t, ceo, mock);
    await createCompany(t, ceo);
    // delegate_task is a communication tool: granted by elevated access or an explicit allow.
    const repo = t.app.get(DatabaseService).dataSource.getRepository(AgentEntity);
    for (const agent of await repo.find({ order: { position: 'ASC' } })) {
      agent.settings = {
        ...agent.settings,
        tools: { access_level: 'standard', allowed: ['delegate_task'], denied: [] },
      };
      await repo.save(agent);
      byRole[agent.role] ??= agent;
    }
    devs = await repo.find({ where: { role: 'Full-Stack Developer' }, order: { position: 'ASC' } });
    project = (await t.http.post('/api/v1/projects').set(bearer(ceo)).send({ name: 'Parser' }).expect(201)).body.data
      .id as string;
  });

  afterEach(() => mock.reset());

  afterAll(async () => {
    await t.close();
    await mock.close();
  });

  const delegation = () => t.app.get(DelegationService);

  async function allTasks(): Promise<Json[]> {
    return (await t.http.get('/api/v1/tasks').query({ status: '', limit: 200 }).set(bearer(ceo)).expect(200)).body
      .data as Json[];
  }

  /** Waits until no task waits for, is in or is finishing a run, so a scripted reply goes to the run meant for it. */
  async function settled(): Promise<Json[]> {
    return eventually(allTasks, (tasks) =>
      tasks.every((x) => !['assigned', 'in_progress', 'in_review'].includes(x.status)),
    );
  }

  async function newTask(title: string, assignee?: AgentEntity): Promise<string> {
    const res = await t.http
      .post('/api/v1/tasks')
      .set(bearer(ceo))
      .send({
        title,
        description: `${title}, end to end.`,
        type: 'development',
        project,
        created_by: 'ceo',
        ...(assignee ? { assigned_to: assignee.name } : {}),
      })
      .expect(201);
    return res.body.data.id as string;
  }

  function toolReplies(): string[] {
    return mock.requests
      .filter((r) => r.path.endsWith('/chat/completions'))
      .flatMap((r) => ((r.body as Json).messages as Json[]).filter((m) => m.role === 'tool'))
      .map((m) => m.content as string);
  }

  async function setSetting(key: string, value: string | null): Promise<void> {
    if (value === null) {
      await t.http.delete(`${S}/${key}`).set(bearer(ceo)).expect(204);
    } else {
      await t.http.put(`${S}/${key}`).set(bearer(ceo)).send({ value }).expect(200);
    }
  }

  it('should run the subtask an agent delegates to its report, with parent and chain, activities and a message', async () => {
    const cto = byRole.CTO;
    const dev = devs[0];
    mock.enqueue({
      kind: 'tool_calls',
      calls: [
        {
          name: 'delegate_task',
          arguments: {
            delegatee: dev.name,
            title: 'Write the tokenizer',
            description: 'Split the config file into tokens.',
            refinement: 'Keep line numbers.',
            constraints: ['No new dependencies'],
          },
        },
      ],
    });
    const parentId = await newTask('Build the parser', cto);
    const tasks = await settled();
    const parent = tasks.find((x) => x.id === parentId) as Json;
    const sub = tasks.find((x) => x.parent_task_id === parentId) as Json;
    expect(parent.status).toBe('completed');
    expect(sub).toMatchObject({
      title: 'Write the tokenizer',
      description:
        'Split the config file into tokens.\n\nRefinement: Keep line numbers.\n\nConstraints:\n- No new dependencies',
      created_by: cto.name,
      assigned_to: dev.name,
      parent_task_id: parentId,
      delegation_chain: [cto.name],
      project,
      status: 'completed',
    });
    expect(toolReplies().some((c) => c.startsWith(`Delegated to ${dev.name} as task ${sub.id as string}`))).toBe(true);

    const sent = (
      await t.http.get('/api/v1/activities').query({ type: 'delegation_sent' }).set(bearer(ceo)).expect(200)
    ).body.data as Json[];
    expect(sent).toHaveLength(1);
    const delegationId = sent[0].related_ids.delegation_id as string;
    expect(sent[0]).toMatchObject({
      description: `Delegated task ${sub.id as string} to ${dev.name}: Write the tokenizer`,
      related_ids: {
        agent_id: cto.id,
        delegatee_id: dev.id,
        original_task_id: parentId,
        delegated_task_id: sub.id,
      },
    });
    const received = (
      await t.http.get('/api/v1/activities').query({ type: 'delegation_received' }).set(bearer(ceo)).expect(200)
    ).body.data as Json[];
    expect(received).toEqual([
      expect.objectContaining({
        related_ids: {
          agent_id: dev.id,
          delegation_id: delegationId,
          delegator_id: cto.id,
          original_task_id: parentId,
          delegated_task_id: sub.id,
        },
      }),
    ]);
    // An agent's own timeline shows its side of the delegation only.
    const devFeed = (await t.http.get(`/api/v1/agents/${dev.name}/activity`).set(bearer(ceo)).expect(200)).body
      .data as Json[];
    const types = devFeed.map((e) => e.event_type as string);
    expect(types).toContain('delegation_received');
    expect(types).not.toContain('delegation_sent');

    const direct = `@${[cto.name, dev.name].sort().join(':')}`;
    const dm = await t.http.get('/api/v1/messages').query({ channel: direct }).set(bearer(ceo)).expect(200);
    expect(dm.body.data).toEqual([
      expect.objectContaining({ from: cto.name, to: dev.name, type: 'delegation', metadata: expect.any(Object) }),
    ]);
    expect((dm.body.data as Json[])[0].metadata).toMatchObject({
      task_id: sub.id,
      extra: [
        ['delegation_id', delegationId],
        ['original_task_id', parentId],
      ],
    });
  });

  it('should refuse a delegation up the chain and a skip-level one unless skip-level is allowed', async () => {
    const root = await newTask('Plan the release');
    const up = delegation().delegate({
      delegator: devs[0].name,
      delegatee: byRole.CTO.name,
      originalTaskId: root,
      title: 'Review my work',
      description: 'Please review.',
    });
    await expect(up).rejects.toMatchObject({ code: ErrorCode.DelegationNotAuthorized, check: 'authority' });
    const skip = { delegator: byRole.CEO.name, delegatee: devs[1].name, originalTaskId: root };
    await expect(delegation().delegate({ ...skip, title: 'Fix the build', description: 'It is red.' })).rejects.toThrow(
      'skip-level delegation is off',
    );

    await setSetting('allow_skip_level', 'true');
    try {
      const { task } = await delegation().delegate({ ...skip, title: 'Fix the build', description: 'It is red.' });
      expect(task).toMatchObject({ parentTaskId: root, delegationChain: [byRole.CEO.name], assignedTo: devs[1].name });
    } finally {
      await setSetting('allow_skip_level', null);
    }
    await settled();
  });

  it('should refuse the same work to the same agent within the dedup window, from the stored records', async () => {
    const root = await newTask('Ship the docs');
    const request = {
      delegator: byRole.CTO.name,
      delegatee: devs[1].name,
      originalTaskId: root,
      title: 'Write the guide',
      description: 'A getting-started guide.',
    };
    await delegation().delegate(request);
    await expect(delegation().delegate({ ...request, title: ' write THE guide ' })).rejects.toMatchObject({
      code: ErrorCode.DelegationDuplicate,
      check: 'dedup',
      retryable: true,
    });
    await delegation().delegate({ ...request, title: 'Write the reference' });

    // A delegation another replica recorded counts the same: the checks read the table, not memory.
    await t.app
      .get(DatabaseService)
      .dataSource.getRepository(DelegationRecordEntity)
      .insert({
        id: randomUUID(),
        delegatorId: byRole.CTO.id,
        delegatorName: byRole.CTO.name,
        delegateeId: devs[1].id,
        delegateeName: devs[1].name,
        originalTaskId: root,
        delegatedTaskId: 'task-elsewhere',
        title: 'Write the changelog',
        fingerprint: delegationFingerprint('Write the changelog', request.description),
        refinement: '',
        timestamp: new Date(),
      });
    await expect(delegation().delegate({ ...request, title: 'Write the changelog' })).rejects.toMatchObject({
      check: 'dedup',
    });
    await settled();
  });

  it('should refuse a delegation loop at the ancestry check, as the delegating model sees it', async () => {
    const cto = byRole.CTO;
    const dev = devs[0];
    // Without the chain of command a report may hand work up, so only loop prevention stands in the way.
    await setSetting('enforce_chain_of_command', 'false');
    try {
      const root = await newTask('Harden the parser');
      mock.enqueue({
        kind: 'tool_calls',
        calls: [
          {
            name: 'delegate_task',
            arguments: { delegatee: cto.name, title: 'Take it back', description: 'I would rather you did it.' },
          },
        ],
      });
      const { task } = await delegation().delegate({
        delegator: cto.name,
        delegatee: dev.name,
        originalTaskId: root,
        title: 'Fuzz the parser',
        description: 'Find inputs that crash it.',
      });
      const tasks = await settled();
      expect(tasks.find((x) => x.id === task.id)?.status).toBe('completed');
      expect(tasks.filter((x) => x.parent_task_id === task.id)).toEqual([]);
      expect(toolReplies()).toContainEqual(
        `delegate_task refused by the ancestry check [${ErrorCode.DelegationAncestryLoop}]: ${cto.name} is already in ` +
          `the delegation chain (${cto.name} → ${dev.name}): delegating to it would loop`,
      );
    } finally {
      await setSetting('enforce_chain_of_command', null);
    }
  });

  it('should open the circuit breaker after three bounces between two agents', async () => {
    const pm = byRole['Product Manager'];
    const dev = devs[1];
    await setSetting('enforce_chain_of_command', 'false');
    try {
      const root = await newTask('Refine the roadmap');
      const hop = (from: AgentEntity, to: AgentEntity, n: number) =>
        delegation().delegate({
          delegator: from.name,
          delegatee: to.name,
          originalTaskId: root,
          title: `Hand-over ${n}`,
          description: `Round ${n}.`,
        });
      await hop(pm, dev, 1);
      await hop(dev, pm, 2);
      await hop(pm, dev, 3);
      await hop(dev, pm, 4);
      await expect(hop(pm, dev, 5)).rejects.toMatchObject({
        code: ErrorCode.DelegationCircuitOpen,
        check: 'circuit_breaker',
        retryable: true,
      });
      await settled();
    } finally {
      await setSetting('enforce_chain_of_command', null);
    }
  });
});
