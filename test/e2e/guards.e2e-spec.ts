import { createHmac } from 'node:crypto';

import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner, ModulesContainer, Reflector } from '@nestjs/core';

import { endpointMetadataOf, IS_PUBLIC, REQUIRED_PERMISSION } from '@app/platform';
import { testBackends } from '@app/testing';

import { bearer, setupCeo, startTestApp, TEST_JWT_SECRET, type TestApp, userWithRole } from '../support';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** The CLI's short-lived system token, signed with the shared secret. */
function systemToken(): string {
  const now = Math.floor(Date.now() / 1000);
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const body = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({ sub: 'system', iss: 'synthorg-cli', aud: 'synthorg-backend', iat: now, exp: now + 60 })}`;
  return `${body}.${createHmac('sha256', TEST_JWT_SECRET).update(body).digest('base64url')}`;
}

describe('every route is guarded', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: { SYNTHORG_RATE_LIMIT_ANONYMOUS_PER_MINUTE: '10000' } });
  });

  afterAll(async () => {
    await t.close();
  });

  /** Every route handler of the running app, with its controller class. */
  function registeredHandlers(): { label: string; handler: object; controller: object }[] {
    const discovery = new DiscoveryService(t.app.get(ModulesContainer));
    const scanner = new MetadataScanner();
    const found: { label: string; handler: object; controller: object }[] = [];
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
          Reflect.getMetadata(METHOD_METADATA, handler) === undefined
        ) {
          continue;
        }
        found.push({ label: `${wrapper.name}.${name}`, handler, controller: wrapper.metatype as object });
      }
    }
    return found;
  }

  it('should declare @Public() or a permission on every registered handler', () => {
    const reflector = new Reflector();
    const unguarded: string[] = [];
    let handlers = 0;
    for (const { label, handler, controller } of registeredHandlers()) {
      handlers += 1;
      const targets = [handler, controller];
      const isPublic = reflector.getAllAndOverride<boolean | undefined>(IS_PUBLIC, targets as never) === true;
      const permission = reflector.getAllAndOverride<string | undefined>(REQUIRED_PERMISSION, targets as never);
      if (!isPublic && !permission) {
        unguarded.push(label);
      }
    }
    expect(handlers).toBeGreaterThan(10);
    expect(unguarded).toEqual([]);
  });

  it('should declare every registered handler through @Endpoint', () => {
    const undeclared = registeredHandlers()
      .filter(({ handler }) => endpointMetadataOf(handler) === undefined)
      .map(({ label }) => label);
    expect(undeclared).toEqual([]);
  });

  it('should answer 401 on every non-public documented route without a token', async () => {
    const doc = (await t.http.get('/docs/openapi.json').expect(200)).body as {
      paths: Record<string, Partial<Record<(typeof METHODS)[number], { security?: unknown[] }>>>;
    };
    const publicRoutes = new Set([
      'post /api/v1/auth/setup',
      'post /api/v1/auth/login',
      'post /api/v1/auth/logout',
      'get /api/v1/setup/status',
    ]);
    const checked: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const method of METHODS) {
        if (!item[method] || path.startsWith('/api/v1/health') || publicRoutes.has(`${method} ${path}`)) {
          continue;
        }
        const url = path.replace(/\{[^}]+\}/g, 'x');
        const res = await t.http[method](url).send({});
        expect({ route: `${method} ${path}`, status: res.status }).toEqual({ route: `${method} ${path}`, status: 401 });
        checked.push(`${method} ${path}`);
      }
    }
    expect(checked.length).toBeGreaterThan(8);
  });
});

describe.each(testBackends())('role matrix on %s', (backend) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    t = await startTestApp({ backend, env: { SYNTHORG_RATE_LIMIT_AUTH_PER_MINUTE: '1000' } });
    tokens.ceo = await setupCeo(t);
    for (const role of ['manager', 'board_member', 'pair_programmer', 'observer'] as const) {
      tokens[role] = await userWithRole(t, tokens.ceo, role);
    }
    tokens.system = systemToken();
  });

  afterAll(async () => {
    await t.close();
  });

  // [route, method, body, roles allowed]; everyone else gets 403 (1001).
  const matrix: Array<[string, 'get' | 'post', object | undefined, string[]]> = [
    ['/api/v1/auth/me', 'get', undefined, ['ceo', 'manager', 'board_member', 'pair_programmer', 'observer']],
    ['/api/v1/auth/ws-ticket', 'post', {}, ['ceo', 'manager', 'board_member', 'pair_programmer', 'observer']],
    ['/api/v1/auth/sessions?scope=all', 'get', undefined, ['ceo']],
    ['/api/v1/users', 'get', undefined, ['ceo']],
    ['/api/v1/tasks', 'get', undefined, ['ceo', 'manager', 'board_member', 'pair_programmer', 'observer']],
    [
      '/api/v1/users',
      'post',
      { username: 'made-by-%ROLE%', password: 'long-enough-password', role: 'observer' },
      ['ceo'],
    ],
  ];

  it.each(matrix)('should enforce %s %s', async (route, method, body, allowed) => {
    for (const role of ['ceo', 'manager', 'board_member', 'pair_programmer', 'observer', 'system']) {
      const payload = body ? JSON.parse(JSON.stringify(body).replace('%ROLE%', role)) : undefined;
      const res = await t.http[method](route)
        .set(bearer(tokens[role] ?? ''))
        .send(payload);
      if (allowed.includes(role)) {
        expect({ role, status: res.status < 300 }).toEqual({ role, status: true });
      } else {
        expect({ role, status: res.status, code: res.body.error_detail?.error_code }).toEqual({
          role,
          status: 403,
          code: 1001,
        });
      }
    }
  });
});
