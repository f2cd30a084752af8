import { createHmac } from 'node:crypto';

import type { PersistenceBackend } from '@app/persistence';

import { MessagePosting } from '../../../apps/api/src/modules/messages';

import {
  bearer,
  createCompany,
  login,
  type MockLlm,
  NEW_PASSWORD,
  setupCeo,
  startMockLlm,
  startTestApp,
  TEST_JWT_SECRET,
  TEST_PASSWORD,
  type TestApp,
  userWithRole,
} from '../../support';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Limits high enough that a few thousand requests in a minute are never throttled. */
export const ATTACK_ENV: Record<string, string> = {
  SYNTHORG_RATE_LIMIT_AUTHENTICATED_PER_MINUTE: '1000000',
  SYNTHORG_RATE_LIMIT_ANONYMOUS_PER_MINUTE: '100000',
  SYNTHORG_RATE_LIMIT_AUTH_PER_MINUTE: '10000',
  // Generated tasks must not start runs: the suites attack the API, not the work engine.
  SYNTHORG_ENGINE_ENABLED: 'false',
  // Memory wired on the fake provider's embeddings, so the memory routes answer as in production.
  SYNTHORG_MEMORY_EMBEDDER_PROVIDER: 'mock',
  SYNTHORG_MEMORY_EMBEDDER_MODEL: 'mock-embed',
};

/** The human roles that log in (the sixth, `system`, is the CLI identity and cannot). */
export const LOGIN_ROLES = ['ceo', 'manager', 'board_member', 'pair_programmer', 'observer'] as const;
export type LoginRole = (typeof LOGIN_ROLES)[number];

/** The CLI's short-lived system token, as the command-line tool signs it with the shared secret. */
export function systemToken(secret = TEST_JWT_SECRET): string {
  const now = Math.floor(Date.now() / 1000);
  const encode = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url');
  const claims = { sub: 'system', iss: 'synthorg-cli', aud: 'synthorg-backend', iat: now, exp: now + 3600 };
  const body = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(claims)}`;
  return `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`;
}

/** An unsigned (`alg: none`) token claiming to be a CEO session: must be refused everywhere. */
export function unsignedToken(): string {
  const now = Math.floor(Date.now() / 1000);
  const encode = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url');
  const claims = {
    sub: 'ceo',
    jti: 'forged',
    role: 'ceo',
    iat: now,
    exp: now + 3600,
    iss: 'synthorg-api',
    aud: 'synthorg-api',
  };
  return `${encode({ alg: 'none', typ: 'JWT' })}.${encode(claims)}.`;
}

/**
 * Real values for path parameters and request fields. `main` values are safe to read and edit;
 * `victims` are what destructive operations (delete, role change, provider rewrite) get, so the
 * session and the provider the other requests need survive the run.
 */
export interface Fixtures {
  main: Record<string, string[]>;
  victims: Record<string, string[]>;
  hints: Record<string, unknown[]>;
}

export interface AttackApp {
  t: TestApp;
  mock: MockLlm;
  base: string;
  tokens: Record<LoginRole | 'system', string>;
  /** The current password of each account made here (change-password tests move it). */
  passwords: Record<string, string>;
  fixtures: Fixtures;
  /** A CEO token of its own, for what ends a session (logout). */
  freshCeoToken(): Promise<string>;
  close(): Promise<void>;
}

function ok(res: { status: number; body: Json }, what: string): Json {
  if (res.status >= 300) {
    throw new Error(`${what} answered ${res.status}: ${JSON.stringify(res.body)}`);
  }
  return res.body.data as Json;
}

/**
 * The whole app on a fresh database, listening, with the engine off, a CEO, one account per role,
 * a provider on the fake model server, a company from a template, projects, tasks and the victims
 * that destructive operations are pointed at.
 */
export async function startAttackApp(
  backend: PersistenceBackend,
  options: { env?: Record<string, string>; ceoPassword?: string } = {},
): Promise<AttackApp> {
  const env = options.env ?? {};
  const ceoPassword = options.ceoPassword ?? TEST_PASSWORD;
  const mock = await startMockLlm();
  const t = await startTestApp({ backend, listen: true, env: { ...ATTACK_ENV, ...env } });
  const secret = env.SYNTHORG_JWT_SECRET ?? TEST_JWT_SECRET;
  try {
    const ceo = await setupCeo(t, 'ceo', ceoPassword);
    const auth = bearer(ceo);
    const post = async (path: string, body: Json): Promise<Json> =>
      ok(await t.http.post(`/api/v1${path}`).set(auth).send(body), `POST ${path}`);
    const get = async (path: string): Promise<Json> => ok(await t.http.get(`/api/v1${path}`).set(auth), `GET ${path}`);
    const provider = (name: string): Json => ({
      name,
      gateway_provider: 'openai',
      auth_type: 'none',
      base_url: `${mock.url}/v1`,
      models: [{ id: 'mock-small', cost_per_1k_input: 1, cost_per_1k_output: 2, max_context: 8000 }],
    });
    await post('/providers', provider('mock'));
    await post('/providers', provider('victim-provider'));
    const company = await createCompany(t, ceo);
    const agents = company.agents.map((a) => a.name);
    const tokens = { ceo } as Record<LoginRole | 'system', string>;
    const passwords: Record<string, string> = { ceo: ceoPassword };
    const departments = ((await get('/departments')) as unknown as Json[]).map((d) => d.name as string);
    // An agent of the manager's department for the firing route to fire: the main agent stays on the roster.
    const victimAgent = (
      await post('/setup/agent', {
        name: 'Victim Agent',
        role: 'Assistant',
        department: departments[0],
        model_provider: 'mock',
        model_id: 'mock-small',
      })
    ).name as string;
    for (const role of LOGIN_ROLES.filter((r) => r !== 'ceo')) {
      // The manager heads the department the fixtures point at, so its department authority applies.
      tokens[role] = await userWithRole(t, ceo, role, role, role === 'manager' ? departments[0] : undefined);
      passwords[role] = NEW_PASSWORD;
    }
    tokens.system = systemToken(secret);
    const victimUsers: string[] = [];
    for (const name of ['victim-one', 'victim-two']) {
      victimUsers.push(
        (await post('/users', { username: name, password: 'victim-password-0001', role: 'observer' })).id as string,
      );
    }
    const project = (await post('/projects', { name: 'Attack surface' })).id as string;
    const taskBody = { title: 'Probe', description: 'Probe the API.', type: 'development', project, created_by: 'ceo' };
    const task = (await post('/tasks', { ...taskBody, assigned_to: agents[0] })).id as string;
    const victimTask = (await post('/tasks', taskBody)).id as string;
    // Approval items of a task whose agent is in the manager's department, so its authority applies.
    const inDepartment = company.agents.find((a) => a.department === departments[0])?.name ?? agents[0];
    const managedTask = (await post('/tasks', { ...taskBody, assigned_to: inDepartment })).id as string;
    const approvalBody = { action_type: 'deploy:staging', title: 'Probe', description: '', risk_level: 'high' };
    const approval = (await post('/approvals', { ...approvalBody, task_id: managedTask })).id as string;
    const victimApproval = (await post('/approvals', { ...approvalBody, task_id: managedTask })).id as string;
    const artifactBody = { type: 'code', path: 'src/probe.ts', task_id: task, created_by: agents[0] };
    const artifact = (await post('/artifacts', artifactBody)).id as string;
    const victimArtifact = (await post('/artifacts', artifactBody)).id as string;
    const message = await t.app
      .get(MessagePosting)
      .post({ from: agents[0], channel: '#engineering', type: 'status_report', content: 'Probing.' });
    const preset = { name: 'attack_preset', description: 'A custom preset.' };
    await post('/personalities/presets', preset);
    await post('/personalities/presets', { ...preset, name: 'victim_preset' });
    const users = ((await get('/users')) as unknown as Json[]).map((u) => u.id as string);
    const otherCeoSession = await login(t, 'ceo', passwords.ceo);
    const sessions = (
      ok(await t.http.get('/api/v1/auth/sessions').set(bearer(otherCeoSession)), 'sessions') as unknown as Json[]
    )
      .filter((s) => s.is_current === true)
      .map((s) => s.id as string);
    const lastAgent = String(agents.length - 1);
    const fixtures: Fixtures = {
      main: {
        approval_id: [approval],
        agent_name: [agents[0]],
        agent_index: ['0'],
        project_id: [project],
        task_id: [task],
        artifact_id: [artifact],
        message_id: [message.id],
        user_id: users,
        session_id: sessions,
        model_id: ['mock-small'],
        'departments/{name}': departments,
        'presets/{name}': ['attack_preset'],
        'providers/{name}': ['mock'],
      },
      victims: {
        agent_name: [victimAgent],
        approval_id: [victimApproval],
        agent_index: [lastAgent],
        task_id: [victimTask],
        artifact_id: [victimArtifact],
        user_id: victimUsers,
        session_id: sessions,
        model_id: ['mock-small'],
        'presets/{name}': ['victim_preset'],
        'providers/{name}': ['victim-provider'],
      },
      hints: {
        project: [project],
        assigned_to: agents,
        agent_id: agents,
        agent_name: agents,
        lead: agents,
        team: [agents.slice(0, 2)],
        created_by: ['ceo'],
        department: departments,
        role: ['observer', 'pair_programmer'],
        provider: ['mock'],
        model_id: ['mock-small'],
        template_name: ['startup'],
        preset_name: ['ollama'],
        parent_task_id: [task],
        channel: ['#engineering'],
        task_id: [task],
        dependencies: [[task]],
      },
    };
    return {
      t,
      mock,
      base: t.url ?? '',
      tokens,
      passwords,
      fixtures,
      freshCeoToken: () => login(t, 'ceo', passwords.ceo),
      close: async () => {
        await t.close();
        await mock.close();
      },
    };
  } catch (error) {
    await t.close();
    await mock.close();
    throw error;
  }
}

/** The real values for one path parameter of a templated path (`name` is told apart by the segment before it). */
export function fixtureFor(values: Record<string, string[]>, path: string, param: string): string[] {
  const segment = new RegExp(`([a-z-]+)/\\{${param}\\}`).exec(path)?.[1];
  return values[`${segment}/{${param}}`] ?? values[param] ?? [];
}
