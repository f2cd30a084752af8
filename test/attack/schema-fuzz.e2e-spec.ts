import { testBackends } from '@app/testing';

import { type AttackApp, startAttackApp } from './support/attack-app';
import { fixedAttacks, type PlannedRequest, randomRequests } from './support/fuzz-plan';
import { loadOperations, type Operation, operationKeys } from './support/operations';
import { errorBodyProblem, inBatches, type RawAnswer, send } from './support/raw-http';

/**
 * Schema fuzz: every operation of the committed document gets the fixed attacks (missing and
 * mistyped fields, null, edge strings and numbers, deep nesting, malformed JSON, wrong content
 * types, hostile path and query values) and requests fast-check draws from its schema. No answer
 * may be a 5xx, and every error must be the spec's error envelope with a 4-digit code.
 * `npm run fuzz` runs more requests with a random seed, printed for replay.
 */

const SEED = Number(process.env.SYNTHORG_FUZZ_SEED ?? 19_2026);
const DEFAULT_RUNS = 30;
const RUNS = Number(process.env.SYNTHORG_FUZZ_RUNS ?? DEFAULT_RUNS);
const WIDTH = 8;
/** What CI promises per backend (a run told to draw fewer requests per operation promises nothing). */
const MIN_REQUESTS = RUNS >= DEFAULT_RUNS ? 5000 : 0;

jest.setTimeout(Math.max(120_000, RUNS * 4000));

/** Routes that end the caller's session run last, each with a CEO session of its own. */
const SESSION_ENDING = new Set(['POST /api/v1/auth/logout', 'POST /api/v1/auth/change-password']);

/**
 * Reads first, then writes, then the setup wizard (which may replace the company), then deletes,
 * then what ends a session: each phase leaves the fixtures the next needs.
 */
function phase(key: string): number {
  if (SESSION_ENDING.has(key)) {
    return 4;
  }
  if (key.startsWith('GET ')) {
    return 0;
  }
  if (key.startsWith('DELETE ')) {
    return 3;
  }
  return key.includes('/setup/') ? 2 : 1;
}

const KEYS = operationKeys().sort((a, b) => phase(a) - phase(b));

interface Finding {
  label: string;
  status: number;
  problem: string;
  request: string;
}

/**
 * A 500 is always a defect. Another 5xx passes only where the operation documents it and the body
 * says why: 503 with a provider_error code when the model provider itself is unreachable, or 503
 * with 8001 when what serves the operation is not wired (coordination while the work engine is off,
 * as it is in these suites).
 */
function serverError(op: Operation, answer: RawAnswer): string | null {
  if (answer.status < 500) {
    return null;
  }
  const code = (answer.json as { error_detail?: { error_code?: number } }).error_detail?.error_code;
  const explained = String(code).startsWith('7') || code === 8001;
  const documented = answer.status === 503 && op.statuses.includes('503') && explained;
  return documented ? null : `status ${answer.status} (${code})`;
}

function describeRequest(planned: PlannedRequest): string {
  const { method, path, headers, body } = planned.req;
  const text = body === undefined ? '' : String(body);
  const shown = text.length > 160 ? `${text.slice(0, 160)}… (${text.length} bytes)` : text;
  const shownPath = path.length > 160 ? `${path.slice(0, 160)}…` : path;
  return `${method} ${shownPath} [${headers?.['Content-Type'] ?? 'no content type'}] ${shown}`;
}

describe.each(testBackends())('schema fuzz on %s', (backend) => {
  let env: AttackApp;
  let operations: Map<string, Operation>;
  let sent = 0;
  const started = Date.now();

  beforeAll(async () => {
    if (process.env.SYNTHORG_FUZZ_SEED) {
      process.stdout.write(`schema fuzz on ${backend}: seed ${SEED}, ${RUNS} generated requests per operation\n`);
    }
    operations = loadOperations();
    env = await startAttackApp(backend);
  });

  afterAll(async () => {
    await env?.close();
    process.stdout.write(
      `schema fuzz on ${backend}: ${sent} requests in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
    );
  });

  it.each(KEYS)('should answer %s without a 5xx and with the error body on every error', async (key) => {
    const op = operations.get(key);
    expect(op).toBeDefined();
    const index = KEYS.indexOf(key);
    const token = SESSION_ENDING.has(key) ? await env.freshCeoToken() : env.tokens.ceo;
    const ctx = { token, fixtures: env.fixtures };
    const plan = [...fixedAttacks(op!, ctx, SEED + index), ...randomRequests(op!, ctx, SEED + index, RUNS)];
    const answers = await inBatches(plan, WIDTH, (planned) => send(env.base, planned.req));
    sent += plan.length;
    const findings: Finding[] = [];
    answers.forEach((answer, i) => {
      const problem = answer.status >= 400 ? (errorBodyProblem(answer) ?? serverError(op!, answer)) : null;
      if (problem) {
        findings.push({ label: plan[i].label, status: answer.status, problem, request: describeRequest(plan[i]) });
      }
    });
    // One line per distinct finding (label and problem), with one request that shows it.
    const distinct = new Map(findings.map((f) => [`${f.status} ${f.label}: ${f.problem}`, f.request]));
    expect({ seed: SEED, findings: [...distinct].map(([what, req]) => `${what} ← ${req}`) }).toEqual({
      seed: SEED,
      findings: [],
    });
  });

  it('should have sent at least 5,000 requests', () => {
    expect(sent).toBeGreaterThanOrEqual(MIN_REQUESTS);
  });
});
