import { HumanRole } from '@app/domain';
import { testBackends } from '@app/testing';

import { bearer, setupCeo, startMockLlm, startTestApp, type MockLlm, type TestApp, userWithRole } from '../support';

import { ATTACK_ENV } from './support/attack-app';
import { type LoopbackHost, startRedirectHost, startTrapHost } from './support/recording-hosts';

/**
 * Credentials follow their destination, as a class: for every kind of provider secret, every field
 * that says where it is sent, every way a request can fail to give the secret again (omitted, null,
 * empty, blank, the masked placeholder) or give it (the same value, a new one), and every role.
 * After each attempt the provider is probed: the trap host must never receive a stored secret.
 * Then redirects: a provider that answers with a redirect to another origin never gets a credential
 * carried there. Then the address policy: refused where the provider is created or changed.
 */

type Json = Record<string, unknown>;

const MASK = '********';

interface SecretKind {
  field: 'api_key' | 'subscription_token' | 'oauth_client_secret' | 'custom_header_value';
  /** The fields of a provider of this kind, apart from its secret and addresses. */
  shape: Json;
  /** The address fields whose change moves where the secret travels. */
  addresses: Array<'base_url' | 'oauth_token_url'>;
}

const KINDS: SecretKind[] = [
  { field: 'api_key', shape: { auth_type: 'api_key' }, addresses: ['base_url'] },
  { field: 'subscription_token', shape: { auth_type: 'subscription', tos_accepted: true }, addresses: ['base_url'] },
  {
    field: 'oauth_client_secret',
    shape: { auth_type: 'oauth', oauth_client_id: 'client' },
    addresses: ['base_url', 'oauth_token_url'],
  },
  {
    field: 'custom_header_value',
    shape: { auth_type: 'custom_header', custom_header_name: 'X-Api-Token' },
    addresses: ['base_url'],
  },
];

type Variant = 'omitted' | 'null' | 'empty' | 'blank' | 'mask' | 'same' | 'new';
const VARIANTS: Variant[] = ['omitted', 'null', 'empty', 'blank', 'mask', 'same', 'new'];
const WRITERS = ['ceo', 'manager', 'pair_programmer'] as const;
const READERS = ['board_member', 'observer'] as const;

function secretFor(variant: Variant, stored: string, fresh: string): Json {
  switch (variant) {
    case 'omitted':
      return {};
    case 'null':
      return { value: null };
    case 'empty':
      return { value: '' };
    case 'blank':
      return { value: '   ' };
    case 'mask':
      return { value: MASK };
    case 'same':
      return { value: stored };
    case 'new':
      return { value: fresh };
  }
}

/** What the service must answer: the secret really given, or a 400 with the rule's code. */
function expected(variant: Variant): { status: number; codes: number[] } {
  switch (variant) {
    case 'same':
    case 'new':
      return { status: 200, codes: [] };
    case 'omitted':
    case 'null':
    case 'mask':
      return { status: 400, codes: [2028] };
    case 'empty':
    case 'blank':
      return { status: 400, codes: [2000, 2001] };
  }
}

describe.each(testBackends())('credentials follow their destination on %s', (backend) => {
  let t: TestApp;
  let home: MockLlm;
  let trap: LoopbackHost;
  let redirector: LoopbackHost;
  const tokens: Record<string, string> = {};
  let serial = 0;

  beforeAll(async () => {
    home = await startMockLlm();
    trap = await startTrapHost();
    redirector = await startRedirectHost(() => trap.url);
    t = await startTestApp({ backend, env: ATTACK_ENV });
    tokens.ceo = await setupCeo(t);
    for (const role of [...WRITERS, ...READERS].filter((r) => r !== 'ceo')) {
      tokens[role] = await userWithRole(t, tokens.ceo, role, role.replace('_', '-'));
    }
  });

  afterAll(async () => {
    await t?.close();
    await Promise.all([home?.close(), trap?.close(), redirector?.close()]);
  });

  async function createProvider(kind: SecretKind, stored: string, overrides: Json = {}): Promise<string> {
    serial += 1;
    const name = `cred-${serial}`;
    await t.http
      .post('/api/v1/providers')
      .set(bearer(tokens.ceo))
      .send({
        name,
        gateway_provider: 'openai',
        base_url: `${home.url}/v1`,
        models: [{ id: 'mock-small' }],
        ...(kind.addresses.includes('oauth_token_url') ? { oauth_token_url: `${home.url}/oauth/token` } : {}),
        ...kind.shape,
        [kind.field]: stored,
        ...overrides,
      })
      .expect(201);
    return name;
  }

  const cases = KINDS.flatMap((kind) =>
    kind.addresses.flatMap((address) => [...WRITERS, ...READERS].map((role) => ({ kind, address, role }) as const)),
  );

  it.each(cases.map((c) => [c.kind.field, c.address, c.role, c] as const))(
    '%s moved by %s as %s: only a secret really given follows the move',
    async (_field, _address, role, { kind, address }) => {
      const writer = (WRITERS as readonly string[]).includes(role);
      for (const variant of VARIANTS) {
        const stored = `stored-${kind.field}-${serial + 1}-canary`;
        const fresh = `fresh-${kind.field}-${serial + 1}-canary`;
        const name = await createProvider(kind, stored);
        const before = (await t.http.get(`/api/v1/providers/${name}`).set(bearer(tokens.ceo)).expect(200)).body.data;
        const destination = address === 'base_url' ? `${trap.url}/v1` : `${trap.url}/oauth/token`;
        const secret = secretFor(variant, stored, fresh);
        const body: Json = { [address]: destination, ...('value' in secret ? { [kind.field]: secret.value } : {}) };
        const res = await t.http.put(`/api/v1/providers/${name}`).set(bearer(tokens[role])).send(body);
        const want = writer ? expected(variant) : { status: 403, codes: [1001] };
        const what = `${variant}: ${res.status} ${res.text}`;
        expect({ what, status: res.status }).toEqual({ what, status: want.status });
        if (want.codes.length > 0) {
          expect(want.codes).toContain(
            (res.body as { error_detail?: { error_code?: number } }).error_detail?.error_code,
          );
        }
        const after = (await t.http.get(`/api/v1/providers/${name}`).set(bearer(tokens.ceo)).expect(200)).body.data;
        if (want.status !== 200) {
          // Refused: nothing stored changed.
          expect(after).toEqual(before);
        }
        await t.http.post(`/api/v1/providers/${name}/test`).set(bearer(tokens.ceo)).send({});
        if (variant !== 'same') {
          expect({ variant, leaked: trap.seen().includes(stored) }).toEqual({ variant, leaked: false });
        }
      }
    },
  );

  it('should not record a secret change in the audit trail when nothing changed (null)', async () => {
    const name = await createProvider(KINDS[0], 'stored-audit-canary');
    await t.http
      .put(`/api/v1/providers/${name}`)
      .set(bearer(tokens.ceo))
      .send({ api_key: null, clear_subscription_token: true })
      .expect(200);
    const rows = await t.http
      .get('/api/v1/audit')
      .query({ action: 'provider.secret_changed', limit: 200 })
      .set(bearer(tokens.ceo))
      .expect(200);
    const mine = (rows.body.data as Array<{ target: string }>).filter((r) => r.target === `provider:${name}`);
    expect(mine).toEqual([]);
    await t.http.put(`/api/v1/providers/${name}`).set(bearer(tokens.ceo)).send({ api_key: 'rotated' }).expect(200);
    const again = await t.http
      .get('/api/v1/audit')
      .query({ action: 'provider.secret_changed', limit: 200 })
      .set(bearer(tokens.ceo))
      .expect(200);
    const rotated = (again.body.data as Array<{ target: string; details: Json }>).filter(
      (r) => r.target === `provider:${name}`,
    );
    expect(rotated.map((r) => r.details)).toEqual([{ changed_fields: ['api_key'] }]);
  });

  describe('redirects to another origin', () => {
    const credentialHeaders = ['authorization', 'x-api-key', 'api-key', 'x-api-token'];

    it.each(KINDS.map((kind) => [kind.field, kind] as const))(
      'should carry no %s across origins on test and discovery',
      async (_field, kind) => {
        const stored = `redirected-${kind.field}-canary`;
        const name = await createProvider(kind, stored, {
          base_url: `${redirector.url}/v1`,
          ...(kind.addresses.includes('oauth_token_url') ? { oauth_token_url: `${home.url}/oauth/token` } : {}),
        });
        const first = trap.received.length;
        await t.http.post(`/api/v1/providers/${name}/test`).set(bearer(tokens.ceo)).send({});
        await t.http.post(`/api/v1/providers/${name}/discover-models`).set(bearer(tokens.ceo)).send({});
        const arrived = trap.received.slice(first);
        if (kind.field !== 'oauth_client_secret') {
          // The redirect was followed (as a GET) and reached the trap, stripped.
          expect(arrived.length).toBeGreaterThan(0);
        }
        for (const request of arrived) {
          for (const header of credentialHeaders) {
            expect({ path: request.path, header, value: request.headers[header] }).toEqual({
              path: request.path,
              header,
              value: undefined,
            });
          }
        }
        expect(trap.seen()).not.toContain(stored);
      },
    );

    it('should not send an OAuth client secret to where a token endpoint redirects', async () => {
      const stored = 'redirected-oauth-token-canary';
      const name = await createProvider(KINDS[2], stored, { oauth_token_url: `${redirector.url}/oauth/token` });
      const first = trap.received.length;
      await t.http.post(`/api/v1/providers/${name}/test`).set(bearer(tokens.ceo)).send({});
      expect(trap.received.length).toBeGreaterThan(first);
      expect(trap.seen()).not.toContain(stored);
    });
  });
});

describe.each(testBackends())('the address policy where a provider is made, on %s', (backend) => {
  let t: TestApp;
  let trap: LoopbackHost;
  let other: LoopbackHost;
  let ceo: string;
  let writer: string;

  beforeAll(async () => {
    trap = await startTrapHost();
    other = await startTrapHost();
    t = await startTestApp({ backend, env: { ...ATTACK_ENV, SYNTHORG_DISCOVERY_BLOCK_PRIVATE_IPS: 'true' } });
    ceo = await setupCeo(t);
    writer = await userWithRole(t, ceo, HumanRole.PairProgrammer, 'pair');
  });

  afterAll(async () => {
    await t?.close();
    await Promise.all([trap?.close(), other?.close()]);
  });

  const provider = (name: string, extra: Json = {}): Json => ({
    name,
    gateway_provider: 'openai',
    auth_type: 'api_key',
    api_key: 'policy-key',
    base_url: `${trap.url}/v1`,
    models: [{ id: 'mock-small' }],
    ...extra,
  });

  it('should refuse a loopback address at creation, naming it and the call that trusts it (400, 2014)', async () => {
    const res = await t.http.post('/api/v1/providers').set(bearer(ceo)).send(provider('local-one')).expect(400);
    expect(res.body.error_detail.error_code).toBe(2014);
    expect(res.body.error).toContain(trap.hostPort);
    expect(res.body.error).toContain('POST /api/v1/providers/discovery-policy/entries');
    expect(res.body.error).toContain('trust_address');
    await t.http.get('/api/v1/providers/local-one').set(bearer(ceo)).expect(404);
  });

  it('should let only a person who manages the allowlist trust the address in the same request, audited', async () => {
    const denied = await t.http
      .post('/api/v1/providers')
      .set(bearer(writer))
      .send(provider('local-two', { trust_address: true }))
      .expect(403);
    expect(denied.body.error).toContain('trust_address');
    await t.http
      .post('/api/v1/providers')
      .set(bearer(ceo))
      .send(provider('local-two', { trust_address: true }))
      .expect(201);
    const policy = await t.http.get('/api/v1/providers/discovery-policy').set(bearer(ceo)).expect(200);
    expect(policy.body.data.host_port_allowlist).toContain(trap.hostPort);
    const audit = await t.http
      .get('/api/v1/audit')
      .query({ action: 'providers.discovery_allowlist.entry_added' })
      .set(bearer(ceo))
      .expect(200);
    expect(audit.body.data).toEqual(
      expect.arrayContaining([expect.objectContaining({ actor: 'ceo', target: `host_port:${trap.hostPort}` })]),
    );
  });

  it('should refuse moving a provider to a refused address (400, 2014), and keep it where it was', async () => {
    const res = await t.http
      .put('/api/v1/providers/local-two')
      .set(bearer(ceo))
      .send({ base_url: `${other.url}/v1`, api_key: 'policy-key' })
      .expect(400);
    expect(res.body.error_detail.error_code).toBe(2014);
    expect(res.body.error).toContain(other.hostPort);
    const stored = await t.http.get('/api/v1/providers/local-two').set(bearer(ceo)).expect(200);
    expect(stored.body.data.base_url).toBe(`${trap.url}/v1`);
  });

  it('should answer a refused OAuth token URL with the same 400 as a refused base_url', async () => {
    await t.http
      .post('/api/v1/providers')
      .set(bearer(ceo))
      .send(
        provider('local-oauth', {
          auth_type: 'oauth',
          api_key: undefined,
          oauth_client_id: 'client',
          oauth_client_secret: 'policy-secret',
          oauth_token_url: `${other.url}/oauth/token`,
          trust_address: true,
        }),
      )
      .expect(201);
    await t.http
      .post('/api/v1/providers/discovery-policy/remove-entry')
      .set(bearer(ceo))
      .send({ host_port: other.hostPort })
      .expect(201);
    const res = await t.http.post('/api/v1/providers/local-oauth/test').set(bearer(ceo)).send({}).expect(400);
    expect(res.body.error_detail.error_code).toBe(2014);
    expect(res.body.error_detail.retryable).toBe(false);
    expect(other.seen()).not.toContain('policy-secret');
  });
});
