import { gzipSync } from 'node:zlib';

import { testBackends } from '@app/testing';

import { type AttackApp, startAttackApp } from './support/attack-app';
import { validRequest } from './support/fuzz-plan';
import { loadOperations, type Operation, operationKeys } from './support/operations';
import { errorBodyProblem, inBatches, type RawAnswer, send } from './support/raw-http';

/**
 * Protective defaults on every documented operation: the security headers, no-store on
 * authenticated JSON, no X-Powered-By; the body limit answered with 413 and the error body, plain,
 * compressed and chunked; CORS closed to an origin that is not configured; JSON errors outside /api.
 */

const SEED = 19_2028;
/** The default body limit (`SYNTHORG_BODY_LIMIT`, 1 MB), overstepped by a little. */
const OVER_LIMIT = 1024 * 1024 + 1024;
const FOREIGN_ORIGIN = 'https://attacker.example';

const SESSION_ENDING = new Set(['POST /api/v1/auth/logout', 'POST /api/v1/auth/change-password']);
const KEYS = operationKeys().sort((a, b) => Number(SESSION_ENDING.has(a)) - Number(SESSION_ENDING.has(b)));

/** What is missing from the headers every response must carry. */
function headerProblems(answer: RawAnswer, authenticated: boolean): string[] {
  const h = answer.headers;
  const problems: string[] = [];
  if (h['x-content-type-options'] !== 'nosniff') {
    problems.push('X-Content-Type-Options: nosniff');
  }
  if (!/frame-ancestors\s+'none'|frame-ancestors\s+'self'/.test(String(h['content-security-policy'] ?? ''))) {
    problems.push('a frame-ancestors policy');
  }
  if (!h['referrer-policy']) {
    problems.push('Referrer-Policy');
  }
  if (h['x-powered-by'] !== undefined) {
    problems.push('no X-Powered-By');
  }
  const json = String(h['content-type'] ?? '').startsWith('application/json');
  if (authenticated && json && !String(h['cache-control'] ?? '').includes('no-store')) {
    problems.push('Cache-Control: no-store');
  }
  return problems;
}

function padded(bytes: number): string {
  return JSON.stringify({ pad: 'x'.repeat(bytes) });
}

describe.each(testBackends())('protective defaults on %s', (backend) => {
  let env: AttackApp;
  let operations: Operation[];

  beforeAll(async () => {
    const all = loadOperations();
    operations = KEYS.map((key) => all.get(key)!);
    env = await startAttackApp(backend);
  });

  afterAll(async () => {
    await env?.close();
  });

  async function ceoToken(op: Operation): Promise<string> {
    return SESSION_ENDING.has(op.key) ? env.freshCeoToken() : env.tokens.ceo;
  }

  it('should send the security headers on every operation, and no-store on authenticated JSON', async () => {
    // Missing header → the operations that lack it (the first few, and how many).
    const byProblem = new Map<string, string[]>();
    for (const op of operations) {
      const token = await ceoToken(op);
      const [signedIn, anonymous] = await Promise.all([
        send(env.base, validRequest(op, { token, fixtures: env.fixtures }, SEED)),
        send(env.base, validRequest(op, { token: '', fixtures: env.fixtures }, SEED)),
      ]);
      const problems = [
        ...headerProblems(signedIn, true),
        ...headerProblems(anonymous, false).map((p) => `anonymous: ${p}`),
      ];
      for (const problem of problems) {
        byProblem.set(problem, [...(byProblem.get(problem) ?? []), op.key]);
      }
    }
    const found = Object.fromEntries(
      [...byProblem].map(([problem, keys]) => [
        problem,
        `${keys.length} operations, e.g. ${keys.slice(0, 3).join(', ')}`,
      ]),
    );
    expect(found).toEqual({});
  });

  it('should answer the login that carries a token with Cache-Control: no-store', async () => {
    const answer = await send(env.base, {
      method: 'POST',
      path: '/api/v1/auth/login',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'ceo', password: env.passwords.ceo }),
    });
    expect(answer.status).toBe(200);
    expect(String(answer.headers['cache-control'])).toContain('no-store');
  });

  it('should answer a body over the limit with 413 and the error body: plain, gzip-compressed and chunked', async () => {
    const withBody = operations.filter((op) => op.body && !SESSION_ENDING.has(op.key));
    const variants = [
      {
        label: 'plain',
        make: () => ({ body: padded(OVER_LIMIT), headers: {} as Record<string, string>, chunked: false }),
      },
      {
        label: 'gzip',
        make: () => ({ body: gzipSync(padded(OVER_LIMIT)), headers: { 'Content-Encoding': 'gzip' }, chunked: false }),
      },
      { label: 'chunked', make: () => ({ body: padded(OVER_LIMIT), headers: {}, chunked: true }) },
    ];
    const cases = withBody.flatMap((op) => variants.map((variant) => ({ op, variant })));
    const answers = await inBatches(cases, 4, ({ op, variant }) => {
      const base = validRequest(op, { token: env.tokens.ceo, fixtures: env.fixtures }, SEED);
      const { body, headers, chunked } = variant.make();
      return send(env.base, {
        ...base,
        body,
        chunked,
        headers: { ...base.headers, 'Content-Type': 'application/json', ...headers },
      });
    });
    const outcomes = Object.fromEntries(
      cases.map(({ op, variant }, i) => [
        `${op.key} (${variant.label})`,
        `${answers[i].status} ${errorBodyProblem(answers[i]) ?? 'error body'}`,
      ]),
    );
    expect(outcomes).toEqual(Object.fromEntries(Object.keys(outcomes).map((k) => [k, '413 error body'])));
    expect(withBody.length).toBeGreaterThan(20);
  });

  it('should grant no CORS access to an origin that is not configured, on any operation', async () => {
    const answers = await inBatches(operations, 8, async (op) => {
      const path = validRequest(op, { token: '', fixtures: env.fixtures }, SEED).path;
      const preflight = await send(env.base, {
        method: 'OPTIONS',
        path,
        headers: {
          Origin: FOREIGN_ORIGIN,
          'Access-Control-Request-Method': op.method.toUpperCase(),
          'Access-Control-Request-Headers': 'authorization,content-type',
        },
      });
      const real = validRequest(op, { token: await ceoToken(op), fixtures: env.fixtures }, SEED);
      const actual = await send(env.base, { ...real, headers: { ...real.headers, Origin: FOREIGN_ORIGIN } });
      return [preflight, actual];
    });
    const granted = operations
      .filter((_, i) =>
        answers[i].some(
          (a) =>
            a.headers['access-control-allow-origin'] !== undefined || a.headers['access-control-allow-credentials'],
        ),
      )
      .map((op) => op.key);
    expect(granted).toEqual([]);
  });

  it.each(['/', '/nope', '/api', '/favicon.ico', '/api/v2/tasks'])(
    'should answer %s, outside the routes, with the JSON error body (404)',
    async (path) => {
      const answer = await send(env.base, { method: 'GET', path, headers: { Accept: 'text/html' } });
      expect({ status: answer.status, problem: errorBodyProblem(answer) }).toEqual({ status: 404, problem: null });
      expect(headerProblems(answer, false)).toEqual([]);
    },
  );
});
