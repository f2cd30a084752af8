import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';

import { DatabaseService } from '@app/platform';
import { testBackends } from '@app/testing';

import { bearer, login } from '../support';

import { KNOWN_CHANNELS } from '../../apps/api/src/realtime/realtime.constants';
import { openClient, type WsTestClient, wsUrl } from '../integration/events/ws-test-client';

import { type AttackApp, startAttackApp } from './support/attack-app';
import { validRequest } from './support/fuzz-plan';
import { fillPath, loadOperations, type Operation, operationKeys, pathParamNames } from './support/operations';
import { inBatches, send } from './support/raw-http';

/**
 * Secret canaries: a distinctive value in every secret the service holds (the signing secret, the
 * provider-secret key, every kind of provider credential, passwords), then every GET operation as
 * the CEO and as an observer, the provider calls that use the credentials, and a live WebSocket
 * subscribed to every channel. No response, event or log line may carry a canary, and the
 * database holds none of them in clear.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const CANARY = {
  jwtSecret: 'canary-jwt-secret-5e1f0a2b7c9d4e3f8a6b1c0d',
  // 32 bytes as hex: the provider-secret encryption key.
  secretsKey: 'ca11ab1e'.repeat(8),
  ceoPassword: 'canary-ceo-password-2f7e9c',
  userPassword: 'canary-user-password-8d3a61',
  changedPassword: 'canary-changed-password-4b90d2',
  wrongPassword: 'canary-wrong-password-c57e18',
  apiKey: 'canary-api-key-71c4e0b9f2',
  subscriptionToken: 'canary-subscription-token-0e8d5a',
  oauthClientSecret: 'canary-oauth-client-secret-93bf27',
  customHeaderValue: 'canary-custom-header-value-6a1d4c',
};

/** Each canary as it could leak: plain, base64 and base64url (an Authorization header, a JWT part). */
function spellings(): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(CANARY)) {
    out.push([name, value]);
    out.push([`${name} (base64)`, Buffer.from(value).toString('base64').replace(/=+$/, '')]);
    out.push([`${name} (base64url)`, Buffer.from(value).toString('base64url')]);
  }
  out.push([
    'secretsKey (bytes as base64)',
    Buffer.from(CANARY.secretsKey, 'hex').toString('base64').replace(/=+$/, ''),
  ]);
  return out;
}

/** The canaries a text carries, by name. */
function leaks(text: string): string[] {
  return spellings()
    .filter(([, value]) => text.includes(value))
    .map(([name]) => name);
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe.each(testBackends())('secret canaries on %s', (backend) => {
  let env: AttackApp;
  let socket: WsTestClient;
  const seen: Array<{ where: string; text: string }> = [];

  beforeAll(async () => {
    env = await startAttackApp(backend, {
      env: { SYNTHORG_JWT_SECRET: CANARY.jwtSecret, SYNTHORG_SECRETS_KEY: CANARY.secretsKey },
      ceoPassword: CANARY.ceoPassword,
    });
    const { t, tokens, mock } = env;
    const ticket = (await t.http.post('/api/v1/auth/ws-ticket').set(bearer(tokens.ceo)).expect(201)).body.data
      .ticket as string;
    socket = await openClient(wsUrl(env.base, ticket));
    socket.send({ action: 'subscribe', channels: [...KNOWN_CHANNELS] });

    // Outbound provider calls pass the discovery allowlist; the fake provider is on loopback.
    await t.http
      .post('/api/v1/providers/discovery-policy/entries')
      .set(bearer(tokens.ceo))
      .send({ host_port: new URL(mock.url).host })
      .expect(201);
    const base = { gateway_provider: 'openai', base_url: `${mock.url}/v1`, models: [{ id: 'mock-small' }] };
    const providers: Json[] = [
      { name: 'canary-api-key', auth_type: 'api_key', api_key: CANARY.apiKey },
      {
        name: 'canary-subscription',
        auth_type: 'subscription',
        subscription_token: CANARY.subscriptionToken,
        tos_accepted: true,
      },
      {
        name: 'canary-oauth',
        auth_type: 'oauth',
        oauth_token_url: `${mock.url}/oauth/token`,
        oauth_client_id: 'client',
        oauth_client_secret: CANARY.oauthClientSecret,
      },
      {
        name: 'canary-header',
        auth_type: 'custom_header',
        custom_header_name: 'X-Api-Token',
        custom_header_value: CANARY.customHeaderValue,
      },
    ];
    for (const provider of providers) {
      const res = await t.http
        .post('/api/v1/providers')
        .set(bearer(tokens.ceo))
        .send({ ...base, ...provider });
      seen.push({ where: `POST /providers (${String(provider.name)})`, text: res.text });
      expect(res.status).toBe(201);
      // The update path carries secrets too.
      const again = await t.http
        .put(`/api/v1/providers/${String(provider.name)}`)
        .set(bearer(tokens.ceo))
        .send({ ...provider, name: undefined });
      seen.push({ where: `PUT /providers/${String(provider.name)}`, text: again.text });
    }
    // Calls that send the credentials upstream, and whose failures come back as answers.
    for (const provider of providers) {
      for (const action of ['test', 'discover-models']) {
        const res = await t.http
          .post(`/api/v1/providers/${String(provider.name)}/${action}`)
          .set(bearer(tokens.ceo))
          .send({});
        seen.push({ where: `POST /providers/${String(provider.name)}/${action}`, text: res.text });
      }
    }
    expect(JSON.stringify(mock.requests.map((r) => r.headers))).toContain(CANARY.apiKey);

    // Passwords: an account made with one, logged in, changed to another; a failed login with a third.
    await t.http
      .post('/api/v1/users')
      .set(bearer(tokens.ceo))
      .send({ username: 'canary-user', password: CANARY.userPassword, role: 'observer' })
      .expect(201);
    const first = await login(t, 'canary-user', CANARY.userPassword);
    const changed = await t.http
      .post('/api/v1/auth/change-password')
      .set(bearer(first))
      .send({ current_password: CANARY.userPassword, new_password: CANARY.changedPassword });
    seen.push({ where: 'POST /auth/change-password', text: changed.text });
    const wrong = await t.http.post('/api/v1/auth/login').send({ username: 'ceo', password: CANARY.wrongPassword });
    seen.push({ where: 'POST /auth/login (wrong password)', text: wrong.text });
  });

  afterAll(async () => {
    await socket?.close();
    await env?.close();
  });

  it('should not answer a canary from any GET operation, as the CEO or as an observer', async () => {
    const operations = loadOperations();
    const gets = operationKeys()
      .filter((key) => key.startsWith('GET '))
      .map((key) => operations.get(key) as Operation);
    const providerNames = ['canary-api-key', 'canary-subscription', 'canary-oauth', 'canary-header'];
    const requests = gets.flatMap((op) => {
      const names =
        pathParamNames(op.path).includes('name') && op.path.includes('/providers/') ? providerNames : [null];
      return ['ceo', 'observer'].flatMap((role) =>
        names.map((name) => {
          const req = validRequest(op, { token: env.tokens[role as 'ceo'], fixtures: env.fixtures }, 1);
          if (name) {
            req.path = fillPath(op.path, { name, model_id: 'mock-small' });
          }
          return { where: `${role} ${req.path}`, req };
        }),
      );
    });
    const answers = await inBatches(requests, 8, (r) => send(env.base, r.req));
    answers.forEach((answer, i) => seen.push({ where: requests[i].where, text: answer.text }));
    expect(answers.filter((a) => a.status === 200).length).toBeGreaterThan(gets.length);
    const found = seen.flatMap(({ where, text }) => leaks(text).map((name) => `${name} in ${where}`));
    expect(found).toEqual([]);
  });

  it('should not publish a canary in any WebSocket event', () => {
    expect(socket.messages.length).toBeGreaterThan(4);
    expect(leaks(JSON.stringify(socket.messages))).toEqual([]);
  });

  it('should not write a canary to any log file or to the console', async () => {
    await env.t.logging.flush();
    const files = filesUnder(env.t.logDir);
    expect(files.length).toBeGreaterThan(0);
    const found = files.flatMap((file) => leaks(readFileSync(file, 'utf8')).map((name) => `${name} in ${file}`));
    expect(found).toEqual([]);
    expect(leaks(env.t.consoleLines().join('\n'))).toEqual([]);
  });

  it('should not send a stored key to a host a writer points the provider at without giving the key again', async () => {
    // A pair programmer may edit providers; moving one to a host of their own must not hand over its key.
    const received: IncomingHttpHeaders[] = [];
    const thief = createServer((req, res) => {
      received.push(req.headers);
      res.writeHead(401, { 'Content-Type': 'application/json' }).end('{}');
    });
    await new Promise<void>((done) => thief.listen(0, '127.0.0.1', done));
    try {
      const { port } = thief.address() as { port: number };
      const writer = { Authorization: `Bearer ${env.tokens.pair_programmer}` };
      const moved = await env.t.http
        .put('/api/v1/providers/canary-api-key')
        .set(writer)
        .send({ base_url: `http://127.0.0.1:${port}/v1` });
      seen.push({ where: 'PUT /providers/canary-api-key (new base_url)', text: moved.text });
      const tested = await env.t.http.post('/api/v1/providers/canary-api-key/test').set(writer).send({});
      seen.push({ where: 'POST /providers/canary-api-key/test (moved)', text: tested.text });
      expect(leaks(JSON.stringify(received))).toEqual([]);
    } finally {
      await new Promise((done) => thief.close(done));
    }
  });

  it('should hold no canary in clear in the database', async () => {
    const db = env.t.app.get(DatabaseService).dataSource;
    let text: string;
    if (backend === 'sqlite') {
      await db.query('PRAGMA wal_checkpoint(TRUNCATE)');
      const path = db.options.database as string;
      text = [path, `${path}-wal`]
        .map((file) => {
          try {
            return readFileSync(file).toString('latin1');
          } catch {
            return '';
          }
        })
        .join('\n');
    } else {
      const tables = await db.query<Array<{ table_name: string }>>(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'",
      );
      const rows = await Promise.all(
        tables.map(
          async ({ table_name }) =>
            await db.query<Array<{ row: string }>>(`SELECT t::text AS row FROM "${table_name}" t`),
        ),
      );
      text = rows
        .flat()
        .map((r) => r.row)
        .join('\n');
    }
    expect(text.length).toBeGreaterThan(1000);
    expect(leaks(text)).toEqual([]);
  });
});
