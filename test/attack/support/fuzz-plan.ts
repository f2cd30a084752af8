import fc from 'fast-check';

import { fixtureFor, type Fixtures } from './attack-app';
import { fillPath, type JsonSchema, type Operation, pathParamNames } from './operations';
import type { RawRequest } from './raw-http';
import { requiredProperties, schemaProperties, schemaTypes, valueArbitrary } from './schema-arbitrary';

/** One request of the plan, with a label that says what it attacks (for the failure report). */
export interface PlannedRequest {
  label: string;
  req: RawRequest;
}

export interface PlanContext {
  /** The bearer token sent; empty for none. */
  token: string;
  fixtures: Fixtures;
}

type Json = Record<string, unknown>;

const LONG = 'x'.repeat(10_000);

/** Path parameter values an attacker tries, spelled raw on the wire. */
export const PATH_ATTACKS: ReadonlyArray<[string, string]> = [
  ['traversal', '../../etc/passwd'],
  ['encoded traversal', '..%2F..%2Fetc%2Fpasswd'],
  ['NUL', '%00'],
  ['embedded NUL', 'a%00b'],
  ['300 characters', 'i'.repeat(300)],
  ['unknown id', 'unknown-0000'],
  ['malformed escape', '%E0%A4%A'],
  ['bad percent', '%ZZ'],
  ['emoji', '%F0%9F%98%80'],
  ['negative', '-1'],
  ['huge number', '99999999999999999999'],
  ['fraction', '1.5'],
  ['blank', '%20'],
  ['sql', "1'%20OR%20'1'='1"],
];

/** Query values an attacker tries (raw, already URL-encoded where they need to be). */
const QUERY_ATTACKS: ReadonlyArray<[string, string]> = [
  ['huge', '99999999999999999999'],
  ['negative', '-1'],
  ['fraction', '1.5'],
  ['word', 'abc'],
  ['empty', ''],
  ['10,000 characters', LONG],
  ['NUL', '%00'],
  ['exponent', '1e400'],
  ['malformed escape', '%E0%A4%A'],
];

/** Values that replace a field's value: wrong types, null, edge strings and numbers. */
const VALUE_ATTACKS: ReadonlyArray<[string, unknown]> = [
  ['null', null],
  ['empty string', ''],
  ['10,000 characters', LONG],
  ['NUL inside', 'a\u0000b'],
  ['lone surrogate', 'a\ud800b'],
  ['right-to-left and emoji', '\u202eabc\u{1f600}'],
  ['negative', -1],
  ['huge', 1e308],
  ['beyond safe integers', 2 ** 60],
  ['fraction', 0.5],
  ['boolean', true],
  ['array', ['x']],
  ['object', { nested: 'x' }],
];

/** Raw JSON number literals that JSON.stringify cannot produce. */
const RAW_NUMBERS: ReadonlyArray<[string, string]> = [
  ['20-digit literal', '99999999999999999999'],
  ['1e400 (Infinity once parsed)', '1e400'],
  ['-0', '-0'],
];

function nested(depth: number, open: string, close: string, core: string): string {
  return open.repeat(depth) + core + close.repeat(depth);
}

function pathValues(op: Operation, ctx: PlanContext): Record<string, string> {
  const destructive = op.method !== 'get';
  const values: Record<string, string> = {};
  for (const name of pathParamNames(op.path)) {
    const victims = destructive ? fixtureFor(ctx.fixtures.victims, op.path, name) : [];
    const known = victims.length > 0 ? victims : fixtureFor(ctx.fixtures.main, op.path, name);
    values[name] = encodeURIComponent(known[0] ?? 'x');
  }
  return values;
}

function request(
  op: Operation,
  ctx: PlanContext,
  parts: { path?: Record<string, string>; query?: string; body?: string; type?: string | null },
): RawRequest {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (ctx.token) {
    headers.Authorization = `Bearer ${ctx.token}`;
  }
  const type = parts.type === undefined ? 'application/json' : parts.type;
  if (parts.body !== undefined && type !== null) {
    headers['Content-Type'] = type;
  }
  const path = fillPath(op.path, parts.path ?? pathValues(op, ctx));
  return {
    method: op.method.toUpperCase(),
    path: parts.query ? `${path}?${parts.query}` : path,
    headers,
    body: parts.body,
  };
}

/** A valid body for the operation (the first value its schema arbitrary yields for this seed). */
export function validBody(op: Operation, ctx: PlanContext, seed: number): Json | undefined {
  if (!op.body) {
    return undefined;
  }
  const [value] = fc.sample(valueArbitrary(op.body.schema, ctx.fixtures.hints), { seed, numRuns: 1 });
  return value as Json;
}

/**
 * The base of the field attacks: only the required fields of a valid body, so that each attack is
 * the one thing wrong with its request (an optional field such as a stale expected_version would
 * otherwise answer 409 before the attacked field is even looked at).
 */
function minimalBody(schema: JsonSchema, valid: Json): Json {
  const required = requiredProperties(schema);
  return Object.fromEntries(Object.entries(valid).filter(([name]) => required.includes(name)));
}

function bodyAttacks(op: Operation, ctx: PlanContext, full: Json): PlannedRequest[] {
  const schema = op.body?.schema as JsonSchema;
  const send = (label: string, body: string | undefined, type?: string | null): PlannedRequest => ({
    label,
    req: request(op, ctx, { body, type }),
  });
  const valid = typeof full === 'object' && full !== null && !Array.isArray(full) ? minimalBody(schema, full) : {};
  const json = JSON.stringify(valid);
  const out: PlannedRequest[] = [
    send('valid body', JSON.stringify(full)),
    send('valid body with the required fields only', json),
    send('no body', undefined),
    send('empty object', '{}'),
    send('malformed JSON', '{"a":'),
    send('JSON null', 'null'),
    send('JSON array', '[]'),
    send('JSON string', '"text"'),
    send('JSON number', '42'),
    send('text/plain body', json, 'text/plain'),
    send('form body', 'a=1&b=2', 'application/x-www-form-urlencoded'),
    send('no content type', json, null),
    send('UTF-16 charset', json, 'application/json; charset=utf-16'),
    send('object nested 1,000 deep', nested(1000, '{"a":', '}', '1')),
    send('array nested 1,000 deep', nested(1000, '[', ']', '1')),
    send('array nested 5,000 deep', nested(5000, '[', ']', '1')),
    send('unknown field', JSON.stringify({ ...valid, unknown_field_x: 1 })),
    send('__proto__ key', json.replace(/^\{/, '{"__proto__":{"polluted":true},').replace(',}', '}')),
    send('constructor key', JSON.stringify({ ...valid, constructor: { prototype: { polluted: true } } })),
    send('duplicate key', json.replace(/^\{/, '{"a":1,"a":2,').replace(',}', '}')),
  ];
  for (const name of requiredProperties(schema)) {
    const rest = { ...valid };
    delete rest[name];
    out.push(send(`missing required ${name}`, JSON.stringify(rest)));
  }
  for (const [name, property] of schemaProperties(schema)) {
    const types = schemaTypes(property);
    for (const [label, value] of VALUE_ATTACKS) {
      out.push(send(`${name} = ${label}`, JSON.stringify({ ...valid, [name]: value })));
    }
    if (types.includes('number') || types.includes('integer')) {
      for (const [label, literal] of RAW_NUMBERS) {
        const text = JSON.stringify({ ...valid, [name]: '\u0001RAW\u0001' }).replace('"\\u0001RAW\\u0001"', literal);
        out.push(send(`${name} = ${label}`, text));
      }
    }
    if (types.includes('array')) {
      out.push(send(`${name} with 10,000 items`, JSON.stringify({ ...valid, [name]: Array(10_000).fill('x') })));
    }
  }
  return out;
}

function pathAttacks(op: Operation, ctx: PlanContext, body: string | undefined): PlannedRequest[] {
  const out: PlannedRequest[] = [];
  for (const name of pathParamNames(op.path)) {
    for (const [label, raw] of PATH_ATTACKS) {
      out.push({
        label: `path ${name} = ${label}`,
        req: request(op, ctx, { path: { ...pathValues(op, ctx), [name]: raw }, body }),
      });
    }
  }
  return out;
}

function queryAttacks(op: Operation, ctx: PlanContext, body: string | undefined): PlannedRequest[] {
  const out: PlannedRequest[] = [];
  for (const param of op.params.filter((p) => p.in === 'query')) {
    for (const [label, raw] of QUERY_ATTACKS) {
      out.push({
        label: `query ${param.name} = ${label}`,
        req: request(op, ctx, { query: `${param.name}=${raw}`, body }),
      });
    }
    out.push({
      label: `query ${param.name} repeated`,
      req: request(op, ctx, { query: `${param.name}=1&${param.name}=2`, body }),
    });
    out.push({ label: `query ${param.name}[key]`, req: request(op, ctx, { query: `${param.name}[a]=1`, body }) });
  }
  return out;
}

/** A well-formed request for the operation: real path values, a valid body drawn for `seed`, the context's token (none when empty). */
export function validRequest(op: Operation, ctx: PlanContext, seed: number): RawRequest {
  const body = validBody(op, ctx, seed);
  return request(op, ctx, { body: body === undefined ? undefined : JSON.stringify(body) });
}

/** The fixed attacks on one operation: every mutation kind the suite promises, on every field and parameter. */
export function fixedAttacks(op: Operation, ctx: PlanContext, seed: number): PlannedRequest[] {
  const valid = validBody(op, ctx, seed);
  const body = valid === undefined ? undefined : JSON.stringify(valid);
  return [
    ...(valid === undefined ? [{ label: 'plain request', req: request(op, ctx, {}) }] : bodyAttacks(op, ctx, valid)),
    ...pathAttacks(op, ctx, body),
    ...queryAttacks(op, ctx, body),
  ];
}

const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...VALUE_ATTACKS.map(([, v]) => v)),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.oneof(fc.integer(), fc.string())),
  fc.object({ maxDepth: 2 }),
);

function queryString(op: Operation, hints: Fixtures['hints']): fc.Arbitrary<string> {
  const params = op.params.filter((p) => p.in === 'query');
  if (params.length === 0) {
    return fc.constant('');
  }
  const pieces = params.map((p) =>
    fc
      .option(
        fc.oneof(
          { arbitrary: valueArbitrary(p.schema, hints, p.name).map((v) => encodeURIComponent(String(v))), weight: 3 },
          fc.constantFrom(...QUERY_ATTACKS.map(([, raw]) => raw)),
          fc.string({ maxLength: 20 }).map(encodeURIComponent),
        ),
        { nil: undefined },
      )
      .map((v) => (v === undefined ? '' : `${p.name}=${v}`)),
  );
  return fc.tuple(...pieces).map((parts) => parts.filter(Boolean).join('&'));
}

function pathArbitrary(op: Operation, ctx: PlanContext): fc.Arbitrary<Record<string, string>> {
  const names = pathParamNames(op.path);
  const known = pathValues(op, ctx);
  const model: Record<string, fc.Arbitrary<string>> = {};
  for (const name of names) {
    const schema = op.params.find((p) => p.name === name && p.in === 'path')?.schema ?? { type: 'string' };
    model[name] = fc.oneof(
      { arbitrary: fc.constant(known[name]), weight: 4 },
      fc.constantFrom(...PATH_ATTACKS.map(([, raw]) => raw)),
      valueArbitrary(schema).map((v) => encodeURIComponent(String(v)) || 'x'),
    );
  }
  return fc.record(model);
}

function bodyArbitrary(op: Operation, ctx: PlanContext): fc.Arbitrary<{ label: string; body?: string }> {
  if (!op.body) {
    return fc.constant({ label: 'generated' });
  }
  const schema = op.body.schema;
  const valid = valueArbitrary(schema, ctx.fixtures.hints) as fc.Arbitrary<Json>;
  const names = [...schemaProperties(schema).map(([n]) => n), 'unknown_field_x'];
  const mutated = fc
    .tuple(valid, fc.constantFrom(...names), nastyValue, fc.boolean())
    .map(([body, name, value, drop]) => {
      const copy: Json = typeof body === 'object' && body !== null ? { ...body } : {};
      if (drop) {
        delete copy[name];
        return { label: `generated without ${name}`, body: JSON.stringify(copy) };
      }
      copy[name] = value;
      return { label: `generated with ${name} mutated`, body: JSON.stringify(copy) };
    });
  return fc.oneof(
    { arbitrary: valid.map((b) => ({ label: 'generated valid body', body: JSON.stringify(b) })), weight: 2 },
    { arbitrary: mutated, weight: 3 },
  );
}

/** `runs` requests drawn by fast-check from the operation's schema, valid and mutated, replayable by seed. */
export function randomRequests(op: Operation, ctx: PlanContext, seed: number, runs: number): PlannedRequest[] {
  const arbitrary = fc.record({
    path: pathArbitrary(op, ctx),
    query: queryString(op, ctx.fixtures.hints),
    body: bodyArbitrary(op, ctx),
  });
  return fc.sample(arbitrary, { seed, numRuns: runs }).map(({ path, query, body }) => ({
    label: body.label,
    req: request(op, ctx, { path, query: query || undefined, body: body.body }),
  }));
}
