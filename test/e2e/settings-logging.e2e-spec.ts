import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { createTestDatabase, testBackends } from '@app/testing';

import {
  bearer,
  eventually,
  expectError,
  type LogReceiver,
  setupCeo,
  startHttpReceiver,
  startTcpReceiver,
  startTestApp,
  startUdpReceiver,
  type TestApp,
} from '../support';

import { LoggingSettingsApplier } from '../../apps/api/src/modules/settings';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

jest.setTimeout(60_000);

const S = '/api/v1/settings';
const HIGH_LIMITS = {
  SYNTHORG_RATE_LIMIT_AUTHENTICATED_PER_MINUTE: '100000',
  SYNTHORG_RATE_LIMIT_ANONYMOUS_PER_MINUTE: '100000',
  SYNTHORG_RATE_LIMIT_AUTH_PER_MINUTE: '10000',
  SYNTHORG_ENGINE_ENABLED: 'false',
};

function fileRecords(t: TestApp, file: string): Json[] {
  try {
    return readFileSync(join(t.logDir, file), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Json);
  } catch {
    return [];
  }
}

async function put(t: TestApp, token: string, key: string, value: unknown): Promise<void> {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  await t.http.put(`${S}/observability/${key}`).set(bearer(token)).send({ value: text }).expect(200);
  await t.app.get(LoggingSettingsApplier).settled();
}

describe.each(testBackends())('Live logging settings on %s', (backend) => {
  let t: TestApp;
  let ceo: string;
  const receivers: LogReceiver[] = [];

  beforeAll(async () => {
    t = await startTestApp({ backend, env: HIGH_LIMITS });
    ceo = await setupCeo(t);
  });

  afterAll(async () => {
    await t?.close();
    await Promise.all(receivers.map((receiver) => receiver.close()));
  });

  afterEach(async () => {
    for (const key of ['root_log_level', 'enable_correlation', 'sink_overrides', 'custom_sinks']) {
      await t.http.delete(`${S}/observability/${key}`).set(bearer(ceo)).expect(204);
    }
    await t.app.get(LoggingSettingsApplier).settled();
  });

  it('should ship records to UDP, TCP and HTTP receivers added by a PUT, and stop when removed', async () => {
    const [udp, tcp, http] = await Promise.all([startUdpReceiver(), startTcpReceiver(), startHttpReceiver()]);
    receivers.push(udp, tcp, http);
    await put(t, ceo, 'custom_sinks', [
      { sink_type: 'syslog', syslog_host: '127.0.0.1', syslog_port: udp.port, syslog_protocol: 'udp' },
      { sink_type: 'syslog', syslog_host: '127.0.0.1', syslog_port: tcp.port, syslog_protocol: 'tcp' },
      {
        sink_type: 'http',
        http_url: `http://127.0.0.1:${http.port}/logs`,
        http_batch_size: 10,
        http_flush_interval_seconds: 0.5,
      },
    ]);
    const sinks = (await t.http.get(`${S}/observability/sinks`).set(bearer(ceo)).expect(200)).body.data as Json[];
    expect(sinks.filter((s) => !s.is_default).map((s) => s.sink_type)).toEqual(['syslog', 'syslog', 'http']);
    await t.http.get(`${S}/budget`).set(bearer(ceo)).expect(200);
    for (const receiver of [udp, tcp, http]) {
      // The reconfiguration's own record is the first one the new sinks take.
      await eventually(
        () => receiver.records().some((r) => r['event'] === 'observability.logging.reconfigured'),
        'the reconfiguration record',
      );
      await eventually(
        () =>
          receiver
            .records()
            .some((r) => r['logger'] === 'synthorg.api.access' && (r['req'] as Json)?.['url'] === `${S}/budget`),
        'the access record of a later request',
      );
    }
    await put(t, ceo, 'custom_sinks', []);
    const before = udp.received();
    await t.http.get(`${S}/budget`).set(bearer(ceo)).expect(200);
    await t.logging.flush();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(udp.received()).toBe(before);
  });

  it('should apply the root level, correlation and sink overrides without a restart', async () => {
    const log = t.logging.forName('config.probe');
    await put(t, ceo, 'root_log_level', 'warning');
    log.info('config.probe.quiet');
    log.warn('config.probe.loud');
    await put(t, ceo, 'root_log_level', 'debug');
    log.debug('config.probe.debug');
    await t.logging.flush();
    const events = fileRecords(t, 'configuration.log').map((r) => r['event']);
    expect(events).toContain('config.probe.loud');
    expect(events).not.toContain('config.probe.quiet');
    expect(fileRecords(t, 'debug.log').map((r) => r['event'])).toContain('config.probe.debug');

    await put(t, ceo, 'enable_correlation', 'false');
    await t.http.put(`${S}/budget/reset_day`).set(bearer(ceo)).send({ value: '3' }).expect(200);
    await put(t, ceo, 'enable_correlation', 'true');
    await t.http.put(`${S}/budget/reset_day`).set(bearer(ceo)).send({ value: '4' }).expect(200);
    await t.logging.flush();
    const updates = fileRecords(t, 'configuration.log').filter(
      (r) => r['event'] === 'settings.value.updated' && r['setting'] === 'budget.reset_day',
    );
    expect(updates.find((r) => r['value'] === '3')?.['request_id']).toBeUndefined();
    expect(updates.find((r) => r['value'] === '4')?.['request_id']).toEqual(expect.any(String));

    await put(t, ceo, 'sink_overrides', { 'audit.log': { enabled: false }, 'errors.log': { level: 'critical' } });
    const sinks = (await t.http.get(`${S}/observability/sinks`).set(bearer(ceo)).expect(200)).body.data as Json[];
    expect(sinks.find((s) => s.identifier === 'audit.log')).toMatchObject({ enabled: false });
    expect(sinks.find((s) => s.identifier === 'errors.log')).toMatchObject({ enabled: true, level: 'CRITICAL' });
    t.logging.forName('security.probe').warn('security.probe.after_disable');
    t.logging.forName('config.probe').error('config.probe.error_only');
    await t.logging.flush();
    expect(fileRecords(t, 'audit.log').map((r) => r['event'])).not.toContain('security.probe.after_disable');
    expect(fileRecords(t, 'errors.log').map((r) => r['event'])).not.toContain('config.probe.error_only');
  });

  it('should write a custom file sink added live, keeping every record logged around the change', async () => {
    const log = t.logging.forName('backup.probe');
    for (let i = 0; i < 200; i++) {
      log.info({ i }, 'backup.probe.before');
    }
    const change = put(t, ceo, 'custom_sinks', [
      { file_path: 'shipped/extra.log', routing_prefixes: ['synthorg.backup.'] },
    ]);
    for (let i = 0; i < 200; i++) {
      log.info({ i }, 'backup.probe.during');
    }
    await change;
    log.info('backup.probe.after');
    await t.logging.flush();
    const main = fileRecords(t, 'backup.log').map((r) => r['event']);
    expect(main.filter((e) => e === 'backup.probe.before')).toHaveLength(200);
    expect(main.filter((e) => e === 'backup.probe.during')).toHaveLength(200);
    expect(fileRecords(t, 'shipped/extra.log').map((r) => r['event'])).toContain('backup.probe.after');
  });

  it.each([
    ['custom_sinks', [{ file_path: 'synthorg.log' }], 'file_path'],
    ['custom_sinks', [{ sink_type: 'syslog', syslog_port: 514 }], 'syslog_host'],
    ['custom_sinks', [{ sink_type: 'http' }], 'http_url'],
    [
      'sink_overrides',
      { 'audit.log': { rotation: { strategy: 'external', compress_rotated: true } } },
      'compress_rotated',
    ],
    ['sink_overrides', { __console__: { enabled: false } }, 'console'],
  ])('should refuse %s %j with 400 (2045) naming the field', async (key, value, field) => {
    const res = await t.http
      .put(`${S}/observability/${key}`)
      .set(bearer(ceo))
      .send({ value: JSON.stringify(value) })
      .expect(400);
    expectError(res.body, 2045, 'validation');
    expect(res.body.error).toContain(field);
  });

  it('should keep answering requests while an HTTP sink never answers', async () => {
    const dead = await startHttpReceiver({ answer: false });
    receivers.push(dead);
    await put(t, ceo, 'custom_sinks', [
      {
        sink_type: 'http',
        http_url: `http://127.0.0.1:${dead.port}/logs`,
        http_batch_size: 10,
        http_flush_interval_seconds: 0.5,
        http_timeout_seconds: 1,
        http_max_retries: 0,
      },
    ]);
    for (let i = 0; i < 100; i++) {
      await t.http.get(`${S}/budget`).set(bearer(ceo)).expect(200);
    }
    await eventually(() => dead.received() > 0, 'the dead endpoint to be sent records');
  });
});

describe('Settings stored before a restart', () => {
  it.each(testBackends())(
    'should run with a restart-required value stored before the restart on %s',
    async (backend) => {
      const db = await createTestDatabase(backend);
      try {
        const first = await startTestApp({ backend, database: db, env: HIGH_LIMITS });
        let ceo: string;
        try {
          ceo = await setupCeo(first);
          const res = await first.http
            .put(`${S}/api/jwt_expiry_minutes`)
            .set(bearer(ceo))
            .send({ value: '7' })
            .expect(200);
          expect(res.body.data).toMatchObject({ pending_restart: true });
          await put(first, ceo, 'custom_sinks', [{ file_path: 'kept.log' }]);
        } finally {
          await first.close();
        }
        const second = await startTestApp({ backend, database: db, env: HIGH_LIMITS });
        try {
          expect(second.config.auth.jwtExpiryMinutes).toBe(7);
          const login = await second.http
            .post('/api/v1/auth/login')
            .send({ username: 'ceo', password: 'correct-horse-battery-staple' })
            .expect(200);
          const token = login.body.data.token as string;
          const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as Json;
          expect(claims['exp'] - claims['iat']).toBe(7 * 60);
          const entry = await second.http.get(`${S}/api/jwt_expiry_minutes`).set(bearer(token)).expect(200);
          expect(entry.body.data).toMatchObject({ value: '7', source: 'db', pending_restart: false });
          // The live logging settings apply from the first record of the new start.
          expect(second.logging.sinks().map((s) => s.identifier)).toContain('kept.log');
        } finally {
          await second.close();
        }
      } finally {
        await db.drop();
      }
    },
  );
});

describe('Live logging across replicas on postgres', () => {
  const run = testBackends().includes('postgres') ? it : it.skip;

  run('should rebuild the other replica’s sinks when one replica changes them', async () => {
    const db = await createTestDatabase('postgres');
    const a = await startTestApp({ backend: 'postgres', database: db, env: HIGH_LIMITS });
    let b: TestApp | undefined;
    try {
      b = await startTestApp({ backend: 'postgres', database: db, env: HIGH_LIMITS });
      const ceo = await setupCeo(a);
      await put(a, ceo, 'custom_sinks', [{ file_path: 'replicated.log' }]);
      const other = b;
      await eventually(
        () => other.logging.sinks().some((s) => s.identifier === 'replicated.log'),
        'the other replica to open the sink',
      );
      other.logging.forName('config.replica').info('config.replica.written');
      await other.logging.flush();
      expect(fileRecords(other, 'replicated.log').map((r) => r['event'])).toContain('config.replica.written');
    } finally {
      await b?.close();
      await a.close();
      await db.drop();
    }
  });
});
