import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner, ModulesContainer, Reflector } from '@nestjs/core';

import { IS_PUBLIC, REQUIRED_PERMISSION } from '@app/platform';
import { testBackends } from '@app/testing';

import { login } from '../support';

import { type AttackApp, LOGIN_ROLES, type LoginRole, startAttackApp, unsignedToken } from './support/attack-app';
import { validRequest } from './support/fuzz-plan';
import { loadOperations, type Operation, operationKeys } from './support/operations';
import { errorBodyProblem, inBatches, type RawAnswer, send } from './support/raw-http';

/**
 * Role × route matrix: every documented operation, called anonymously, with a forged unsigned
 * token, as each human role and as the CLI's system identity. Who may call what is written below
 * as data from the interface's roles table and the account rules in docs/accounts.md, not read
 * back from the guard: a route the document gains without a row here fails, and so does a handler
 * that declares neither a permission nor @Public().
 */

// The fixture setup (accounts, company, tasks, approval items) takes a few seconds on a loaded machine.
jest.setTimeout(60_000);

const SIGNED_IN: readonly LoginRole[] = ['ceo', 'manager', 'board_member', 'pair_programmer', 'observer'];
/** Spec: read-only roles (board member, observer) only read; pair programmers collaborate (read + write). */
const WRITERS: readonly LoginRole[] = ['ceo', 'manager', 'pair_programmer'];
/** Spec: managers hold department-level authority (ceremony policies). */
const MANAGERS: readonly LoginRole[] = ['ceo', 'manager'];
/** Spec: the CEO, the Board Member and a Manager (for items of their department) decide approvals. */
const APPROVERS: readonly LoginRole[] = ['ceo', 'manager', 'board_member'];
/** Spec: the CEO is the sole authority over accounts; the first-run wizard's writes are the CEO's. */
const CEO_ONLY: readonly LoginRole[] = ['ceo'];

/** Spec: backup, restore and wipe are the CEO's and the command-line System identity's. */
const BACKUP: readonly (LoginRole | 'system')[] = ['ceo', 'system'];

type Access = 'public' | readonly (LoginRole | 'system')[];

const R = SIGNED_IN;
const W = WRITERS;

/** Every documented operation and who may call it. The system identity may call the backup routes only. */
const ACCESS: Record<string, Access> = {
  'GET /api/v1/activities': R,
  'GET /api/v1/admin/backups': BACKUP,
  'POST /api/v1/admin/backups': BACKUP,
  'POST /api/v1/admin/backups/restore': BACKUP,
  'DELETE /api/v1/admin/backups/{backup_id}': BACKUP,
  'GET /api/v1/admin/backups/{backup_id}': BACKUP,
  'GET /api/v1/agents': R,
  'GET /api/v1/analytics/forecast': R,
  'GET /api/v1/analytics/overview': R,
  'GET /api/v1/analytics/trends': R,
  'GET /api/v1/agents/{agent_name}': R,
  // Spec: managers hold department-level authority; a manager outside the agent's department is the route's own 403 (1999).
  'PATCH /api/v1/agents/{agent_name}': MANAGERS,
  'GET /api/v1/agents/{agent_name}/activity': R,
  'GET /api/v1/agents/{agent_name}/autonomy': R,
  'PUT /api/v1/agents/{agent_name}/autonomy': MANAGERS,
  'GET /api/v1/agents/{agent_name}/trust': R,
  // Spec: firing is department-level authority (the manager heads the victim agent's department).
  'POST /api/v1/agents/{agent_name}/fire': MANAGERS,
  'POST /api/v1/agents/{agent_name}/fire-request': MANAGERS,
  'POST /api/v1/agents/{agent_name}/release-name': CEO_ONLY,
  'POST /api/v1/agents/{agent_name}/evaluate-level': MANAGERS,
  'GET /api/v1/agents/{agent_name}/history': R,
  'GET /api/v1/agents/{agent_name}/memories': R,
  'POST /api/v1/agents/{agent_name}/memories/search': R,
  'DELETE /api/v1/agents/{agent_name}/memories/{memory_id}': MANAGERS,
  'GET /api/v1/agents/{agent_name}/offboarding': R,
  'GET /api/v1/agents/{agent_name}/onboarding': R,
  // Spec: hiring is department-level authority (a manager outside the department is the route's own 403, 1980).
  'POST /api/v1/agents/{agent_name}/onboarding/retry': MANAGERS,
  'GET /api/v1/hiring/requests': R,
  'POST /api/v1/hiring/requests': MANAGERS,
  'GET /api/v1/hiring/requests/{request_id}': R,
  'POST /api/v1/hiring/requests/{request_id}/select': MANAGERS,
  'POST /api/v1/hiring/requests/{request_id}/instantiate': MANAGERS,
  'GET /api/v1/agents/{agent_name}/performance': R,
  'POST /api/v1/auth/change-password': SIGNED_IN,
  'POST /api/v1/auth/login': 'public',
  'POST /api/v1/auth/logout': 'public',
  'GET /api/v1/artifacts': R,
  'POST /api/v1/artifacts': W,
  'DELETE /api/v1/artifacts/{artifact_id}': W,
  'GET /api/v1/artifacts/{artifact_id}': R,
  'GET /api/v1/artifacts/{artifact_id}/content': R,
  'PUT /api/v1/artifacts/{artifact_id}/content': W,
  'GET /api/v1/auth/me': SIGNED_IN,
  'GET /api/v1/memory/status': R,
  'GET /api/v1/memory/org': R,
  'POST /api/v1/memory/org': MANAGERS,
  'DELETE /api/v1/memory/org/{fact_id}': MANAGERS,
  'GET /api/v1/meetings': R,
  'POST /api/v1/meetings/trigger': W,
  'GET /api/v1/meetings/{meeting_id}': R,
  'GET /api/v1/approvals': R,
  'POST /api/v1/approvals': W,
  'GET /api/v1/approvals/{approval_id}': R,
  'POST /api/v1/approvals/{approval_id}/approve': APPROVERS,
  'POST /api/v1/approvals/{approval_id}/reject': APPROVERS,
  // Spec: the audit trail is for auditors, the CEO and the Board Member.
  'GET /api/v1/audit': ['ceo', 'board_member'],
  'GET /api/v1/audit/verify': ['ceo', 'board_member'],
  'GET /api/v1/auth/sessions': SIGNED_IN,
  'DELETE /api/v1/auth/sessions/{session_id}': SIGNED_IN,
  'POST /api/v1/auth/setup': 'public',
  'POST /api/v1/auth/ws-ticket': SIGNED_IN,
  'GET /api/v1/company': R,
  'GET /api/v1/company/departments': R,
  'GET /api/v1/departments': R,
  'GET /api/v1/departments/{name}': R,
  'GET /api/v1/departments/{name}/autonomy': R,
  'PUT /api/v1/departments/{name}/autonomy': MANAGERS,
  'DELETE /api/v1/departments/{name}/ceremony-policy': MANAGERS,
  'GET /api/v1/departments/{name}/ceremony-policy': R,
  'PUT /api/v1/departments/{name}/ceremony-policy': MANAGERS,
  'GET /api/v1/departments/{name}/health': R,
  'GET /api/v1/health': 'public',
  'GET /api/v1/budget': R,
  'GET /api/v1/budget/agents/{agent_id}': R,
  'GET /api/v1/budget/config': R,
  'GET /api/v1/budget/records': R,
  'GET /api/v1/health/live': 'public',
  'GET /api/v1/health/ready': 'public',
  // The service's MCP server: any signed-in person; each tool then answers within that person's role.
  'POST /api/v1/mcp': R,
  'GET /api/v1/messages': R,
  'GET /api/v1/messages/channels': R,
  'GET /api/v1/messages/{message_id}': R,
  'GET /api/v1/personalities/presets': R,
  'POST /api/v1/personalities/presets': W,
  'DELETE /api/v1/personalities/presets/{name}': W,
  'GET /api/v1/personalities/presets/{name}': R,
  'PUT /api/v1/personalities/presets/{name}': W,
  'GET /api/v1/personalities/schema': R,
  'GET /api/v1/projects': R,
  'POST /api/v1/projects': W,
  'GET /api/v1/projects/{project_id}': R,
  'GET /api/v1/providers': R,
  'POST /api/v1/providers': W,
  'GET /api/v1/providers/discovery-policy': R,
  // The allowlist decides which private addresses the server itself may reach: a security control, the CEO's.
  'POST /api/v1/providers/discovery-policy/entries': CEO_ONLY,
  'POST /api/v1/providers/discovery-policy/remove-entry': CEO_ONLY,
  'POST /api/v1/providers/from-preset': W,
  'GET /api/v1/providers/presets': R,
  'POST /api/v1/providers/probe-preset': W,
  'DELETE /api/v1/providers/{name}': W,
  'GET /api/v1/providers/{name}': R,
  'PUT /api/v1/providers/{name}': W,
  'POST /api/v1/providers/{name}/discover-models': W,
  'GET /api/v1/providers/{name}/health': R,
  'GET /api/v1/providers/{name}/models': R,
  'POST /api/v1/providers/{name}/models/pull': W,
  'DELETE /api/v1/providers/{name}/models/{model_id}': W,
  'PUT /api/v1/providers/{name}/models/{model_id}/config': W,
  'POST /api/v1/providers/{name}/test': W,
  'POST /api/v1/setup/agent': CEO_ONLY,
  'GET /api/v1/reports': R,
  'POST /api/v1/reports/generate': W,
  'GET /api/v1/reports/periods': R,
  'GET /api/v1/reports/{report_id}': R,
  'GET /api/v1/setup/agents': R,
  'PUT /api/v1/setup/agents/{agent_index}/model': CEO_ONLY,
  'PUT /api/v1/setup/agents/{agent_index}/name': CEO_ONLY,
  'PUT /api/v1/setup/agents/{agent_index}/personality': CEO_ONLY,
  'POST /api/v1/setup/agents/{agent_index}/randomize-name': CEO_ONLY,
  'POST /api/v1/setup/company': CEO_ONLY,
  'POST /api/v1/setup/complete': CEO_ONLY,
  'GET /api/v1/setup/name-locales': R,
  'PUT /api/v1/setup/name-locales': CEO_ONLY,
  'GET /api/v1/setup/name-locales/available': R,
  'GET /api/v1/setup/personality-presets': R,
  'GET /api/v1/setup/status': 'public',
  'GET /api/v1/setup/templates': R,
  'GET /api/v1/setup/templates/{template_name}': R,
  'GET /api/v1/settings': R,
  'GET /api/v1/settings/_schema': R,
  'GET /api/v1/settings/_schema/{namespace}': R,
  'GET /api/v1/settings/observability/sinks': R,
  'POST /api/v1/settings/observability/sinks/_test': MANAGERS,
  'GET /api/v1/settings/security/export': R,
  'POST /api/v1/settings/security/import': MANAGERS,
  'GET /api/v1/settings/{namespace}': R,
  'GET /api/v1/settings/{namespace}/{key}': R,
  // Operations: settings writes are the CEO's and managers'.
  'PUT /api/v1/settings/{namespace}/{key}': MANAGERS,
  'DELETE /api/v1/settings/{namespace}/{key}': MANAGERS,
  'GET /api/v1/tasks': R,
  'POST /api/v1/tasks': W,
  'DELETE /api/v1/tasks/{task_id}': W,
  'GET /api/v1/tasks/{task_id}': R,
  'PATCH /api/v1/tasks/{task_id}': W,
  'POST /api/v1/tasks/{task_id}/cancel': W,
  'POST /api/v1/tasks/{task_id}/coordinate': W,
  'POST /api/v1/tasks/{task_id}/transition': W,
  // Tool servers run programs and hold credentials: only the CEO registers, changes, removes or tests them.
  'GET /api/v1/tools/servers': R,
  'POST /api/v1/tools/servers': CEO_ONLY,
  'DELETE /api/v1/tools/servers/{name}': CEO_ONLY,
  'GET /api/v1/tools/servers/{name}': R,
  'PUT /api/v1/tools/servers/{name}': CEO_ONLY,
  'POST /api/v1/tools/servers/{name}/test': CEO_ONLY,
  'GET /api/v1/tools/servers/{name}/tools': R,
  'GET /api/v1/users': CEO_ONLY,
  'POST /api/v1/users': CEO_ONLY,
  'DELETE /api/v1/users/{user_id}': CEO_ONLY,
  'GET /api/v1/users/{user_id}': CEO_ONLY,
  'PATCH /api/v1/users/{user_id}': CEO_ONLY,
};

const IDENTITIES = ['anonymous', 'unsigned', ...LOGIN_ROLES, 'system'] as const;
type Identity = (typeof IDENTITIES)[number];

/** What ends the caller's session runs last, with a session of its own. */
const SESSION_ENDING = new Set(['POST /api/v1/auth/logout', 'POST /api/v1/auth/change-password']);
const KEYS = operationKeys().sort((a, b) => Number(SESSION_ENDING.has(a)) - Number(SESSION_ENDING.has(b)));

const SEED = 19_2027;

/** The outcome class of one answer: the guard let it through, or refused it as unauthenticated or forbidden. */
function outcome(answer: RawAnswer, access: Access): string {
  if (access === 'public') {
    // A public route's 401 is its own answer (a wrong password at login), not the guard's.
    return answer.status >= 500 ? `server error ${answer.status}` : 'allowed';
  }
  const code = (answer.json as { error_detail?: { error_code?: number } } | undefined)?.error_detail?.error_code;
  if (answer.status === 401) {
    return `401 (${code})`;
  }
  // 1001 is the role refusal; another 403 (a manager outside its department) is the route's own rule.
  if (answer.status === 403 && code === 1001) {
    return '403 (1001)';
  }
  return answer.status >= 500 ? `server error ${answer.status}` : 'allowed';
}

function expected(access: Access, identity: Identity): string {
  if (access === 'public') {
    return 'allowed';
  }
  if (identity === 'anonymous' || identity === 'unsigned') {
    return '401 (1000)';
  }
  return (access as readonly string[]).includes(identity) ? 'allowed' : '403 (1001)';
}

describe('the access table', () => {
  it('should name every documented operation, and only those', () => {
    expect(Object.keys(ACCESS).filter((key) => !KEYS.includes(key))).toEqual([]);
    expect(KEYS.filter((key) => !(key in ACCESS))).toEqual([]);
  });
});

describe.each(testBackends())('role × route matrix on %s', (backend) => {
  let env: AttackApp;
  let operations: Map<string, Operation>;
  let token: (identity: Identity, key: string) => Promise<string>;

  beforeAll(async () => {
    operations = loadOperations();
    env = await startAttackApp(backend);
    const fixed: Record<Identity, string> = { anonymous: '', unsigned: unsignedToken(), ...env.tokens };
    token = async (identity, key) => {
      if (SESSION_ENDING.has(key) && (LOGIN_ROLES as readonly string[]).includes(identity)) {
        return login(env.t, identity, env.passwords[identity]);
      }
      return fixed[identity];
    };
  });

  afterAll(async () => {
    await env?.close();
  });

  it('should find @Public() or a permission on every registered handler', () => {
    const discovery = new DiscoveryService(env.t.app.get(ModulesContainer));
    const reflector = new Reflector();
    const scanner = new MetadataScanner();
    const unguarded: string[] = [];
    let handlers = 0;
    for (const wrapper of discovery.getControllers()) {
      const instance = wrapper.instance as object | undefined;
      if (!instance || !wrapper.metatype) {
        continue;
      }
      const prototype = Object.getPrototypeOf(instance) as Record<string, unknown>;
      for (const name of scanner.getAllMethodNames(prototype)) {
        const handler = prototype[name] as object;
        if (
          Reflect.getMetadata(PATH_METADATA, handler) === undefined ||
          !Reflect.hasMetadata(METHOD_METADATA, handler)
        ) {
          continue;
        }
        handlers += 1;
        const targets = [handler, wrapper.metatype as object] as never;
        const isPublic = reflector.getAllAndOverride<boolean | undefined>(IS_PUBLIC, targets) === true;
        if (!isPublic && !reflector.getAllAndOverride<string | undefined>(REQUIRED_PERMISSION, targets)) {
          unguarded.push(`${wrapper.name}.${name}`);
        }
      }
    }
    expect(handlers).toBeGreaterThanOrEqual(KEYS.length);
    expect(unguarded).toEqual([]);
  });

  it.each(KEYS)('should let through exactly the identities the table names on %s', async (key) => {
    const op = operations.get(key)!;
    const access = ACCESS[key] ?? [];
    const answers = await inBatches(IDENTITIES, 4, async (identity) => {
      const ctx = { token: await token(identity, key), fixtures: env.fixtures };
      const req = validRequest(op, ctx, SEED);
      if (key === 'POST /api/v1/auth/change-password' && identity !== 'anonymous' && identity !== 'unsigned') {
        // The right current password, so that an allowed caller really changes it.
        const current = env.passwords[identity] ?? 'not-an-account-password';
        req.body = JSON.stringify({ current_password: current, new_password: `${current}-next` });
      }
      const answer = await send(env.base, req);
      if (key === 'POST /api/v1/auth/change-password' && answer.status === 200) {
        env.passwords[identity] = `${env.passwords[identity]}-next`;
      }
      return answer;
    });
    const seen = Object.fromEntries(IDENTITIES.map((identity, i) => [identity, outcome(answers[i], access)]));
    const wanted = Object.fromEntries(IDENTITIES.map((identity) => [identity, expected(access, identity)]));
    expect(seen).toEqual(wanted);
    const malformed = answers
      .filter((a) => a.status >= 400)
      .map(errorBodyProblem)
      .filter(Boolean);
    expect(malformed).toEqual([]);
  });

  describe('cookie sessions', () => {
    let cookie: string;
    let csrf: string;

    beforeAll(async () => {
      const res = await env.t.http
        .post('/api/v1/auth/login')
        .send({ username: 'pair_programmer', password: env.passwords.pair_programmer });
      const cookies = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
      const value = (name: string): string =>
        cookies
          .find((c) => c.startsWith(`${name}=`))
          ?.split(';')[0]
          .slice(name.length + 1) ?? '';
      cookie = `session=${value('session')}; csrf_token=${value('csrf_token')}`;
      csrf = decodeURIComponent(value('csrf_token'));
      expect(value('session')).not.toBe('');
    });

    const writes = (): Operation[] =>
      KEYS.map((key) => operations.get(key)!).filter(
        (op) => op.method !== 'get' && ACCESS[op.key] !== 'public' && !SESSION_ENDING.has(op.key),
      );

    it('should refuse every protected write authenticated by the cookie without X-CSRF-Token (403, 1004)', async () => {
      const ops = writes();
      const answers = await inBatches(ops, 4, (op) =>
        send(env.base, {
          ...validRequest(op, { token: '', fixtures: env.fixtures }, SEED),
          headers: cookieHeaders(op),
        }),
      );
      const refused = answers.map(
        (a) => (a.json as { error_detail?: { error_code?: number } })?.error_detail?.error_code,
      );
      expect(Object.fromEntries(ops.map((op, i) => [op.key, `${answers[i].status} ${refused[i]}`]))).toEqual(
        Object.fromEntries(ops.map((op) => [op.key, '403 1004'])),
      );
      expect(ops.length).toBeGreaterThan(20);

      function cookieHeaders(op: Operation): Record<string, string> {
        return {
          Cookie: cookie,
          Accept: 'application/json',
          ...(op.body ? { 'Content-Type': 'application/json' } : {}),
        };
      }
    });

    it('should let a cookie-authenticated write through the guard with the matching X-CSRF-Token', async () => {
      const answer = await send(env.base, {
        method: 'POST',
        path: '/api/v1/projects',
        headers: { 'Content-Type': 'application/json', Cookie: cookie, 'X-CSRF-Token': csrf },
        body: JSON.stringify({ name: 'Made with a cookie' }),
      });
      expect(answer.status).toBe(201);
    });

    it('should authenticate a request that carries Authorization by that header alone, with no CSRF demand', async () => {
      // A browser client sends the bearer header and, ambiently, the cookies login set (OWASP: CSRF guards ambient credentials).
      // A session of its own: the matrix above may have revoked the CEO's fixed one.
      const token = await login(env.t, 'ceo', env.passwords.ceo);
      const answer = await send(env.base, {
        method: 'POST',
        path: '/api/v1/projects',
        headers: { 'Content-Type': 'application/json', Cookie: cookie, Authorization: `Bearer ${token}` },
        body: JSON.stringify({ name: 'Made with a bearer token' }),
      });
      expect(answer.status).toBe(201);
    });
  });
});
