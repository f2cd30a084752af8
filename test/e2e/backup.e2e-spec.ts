import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { ErrorCode } from '@app/domain';
import { DatabaseService } from '@app/platform';
import { eventually, testBackends } from '@app/testing';

import { mintSystemToken } from '../../apps/api/src/modules/users';
import {
  bearer,
  createCompany,
  expectError,
  type MockLlm,
  seedCostRecords,
  setupCeo,
  startMockLlm,
  startTestApp,
  TEST_JWT_SECRET,
  type TestApp,
  userWithRole,
} from '../support';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Tables whose rows move with every request (sessions, rate limits, idempotency keys), left out of the comparison. */
const VOLATILE = new Set(['sessions', 'rate_limit_buckets', 'idempotency_keys', 'login_failures', 'ws_tickets']);
/** The audit trail gains the restore's own row after it: compared as the backed-up rows plus that one. */
const AUDIT = 'audit_entries';

/** A content hash per table of the service's schema. */
async function tableHashes(t: TestApp): Promise<Record<string, string>> {
  const ds = t.app.get(DatabaseService).dataSource;
  const tables =
    ds.options.type === 'postgres'
      ? await ds.query<{ name: string }[]>(
          "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
        )
      : await ds.query<{ name: string }[]>(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
        );
  const hashes: Record<string, string> = {};
  for (const { name } of tables.filter((row) => !VOLATILE.has(row.name) && row.name !== AUDIT)) {
    // The restore's own announcement to the other replicas travels through the events table.
    const rows = (await ds.query<Json[]>(`SELECT * FROM "${name}"`)).filter((row) => row.channel !== 'internal.backup');
    const lines = rows.map((row) => JSON.stringify(row)).sort();
    hashes[name] = `${rows.length}:${createHash('sha256').update(lines.join('\n')).digest('hex')}`;
  }
  return hashes;
}

/** The hashes of the tables the work engine writes (tasks, their transitions, costs and projects). */
function domainTables(hashes: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(hashes).filter(([name]) =>
      /^(tasks|task_[a-z_]+|cost_[a-z_]+|projects|agents|artifacts)$/.test(name),
    ),
  );
}

const chatCount = (mock: MockLlm): number => mock.requests.filter((r) => r.path.endsWith('/chat/completions')).length;

async function agentId(t: TestApp): Promise<string> {
  const rows = await t.app.get(DatabaseService).dataSource.query<{ id: string }[]>('SELECT id FROM agents');
  const [first] = rows;
  if (!first) {
    throw new Error('the company has no agents');
  }
  return first.id;
}

describe.each(testBackends())('backups on %s', (backend) => {
  let t: TestApp;
  let ceo: string;
  let system: string;
  let backupDir: string;

  const backup = async (token = ceo): Promise<Json> =>
    (await t.http.post('/api/v1/admin/backups').set(bearer(token)).expect(201)).body.data as Json;
  const setting = (key: string, value: string) =>
    t.http.put(`/api/v1/settings/backup/${key}`).set(bearer(ceo)).send({ value }).expect(200);

  beforeAll(async () => {
    t = await startTestApp({ backend });
    ceo = await setupCeo(t);
    // As the operator's `npm run system-token` mints it from the signing secret.
    system = mintSystemToken(TEST_JWT_SECRET);
    backupDir = join(t.logDir, 'backups');
    await createCompany(t, ceo);
    await seedCostRecords(t, await agentId(t), 10_000, (i) => ({ costUsd: i / 1000 }));
  }, 120_000);

  afterAll(async () => {
    await t?.close();
  });

  it('should answer 401 without a token and 403 (1001) to every role but the CEO', async () => {
    expectError((await t.http.get('/api/v1/admin/backups').expect(401)).body, ErrorCode.Unauthorized, 'auth');
    for (const role of ['manager', 'observer'] as const) {
      const token = await userWithRole(t, ceo, role, `backup-${role}`);
      const list = await t.http.get('/api/v1/admin/backups').set(bearer(token)).expect(403);
      expectError(list.body, ErrorCode.Forbidden, 'auth');
      const create = await t.http.post('/api/v1/admin/backups').set(bearer(token)).expect(403);
      expectError(create.body, ErrorCode.Forbidden, 'auth');
    }
  });

  it('should bring every table back to the backed-up state after a restore, as the System identity', async () => {
    const before = await tableHashes(t);
    const ds = t.app.get(DatabaseService).dataSource;
    const auditRows = (): Promise<Json[]> =>
      ds.query<Json[]>(`SELECT seq, hash, action, actor, outcome FROM ${AUDIT} ORDER BY seq`);
    const auditBefore = await auditRows();
    const manifest = await backup(system);
    expect(manifest).toMatchObject({
      trigger: 'manual',
      components: ['persistence', 'memory'],
      synthorg_version: '0.6.1',
    });
    expect(manifest.checksum).toMatch(/^sha256:[0-9a-f]{64}$/);

    await ds.query('DELETE FROM cost_records WHERE cost_usd < 5');
    await t.http.post('/api/v1/projects').set(bearer(ceo)).send({ name: 'After the backup' }).expect(201);
    expect(await tableHashes(t)).not.toEqual(before);

    const res = await t.http
      .post('/api/v1/admin/backups/restore')
      .set(bearer(system))
      .send({ backup_id: manifest.backup_id, confirm: true })
      .expect(200);
    const restored = res.body.data as Json;
    expect(restored).toMatchObject({ restored_components: ['persistence', 'memory'], restart_required: false });
    expect(restored.manifest).toEqual(manifest);
    expect(restored.safety_backup_id).toMatch(/^[0-9a-f]{12}$/);
    expect(await tableHashes(t)).toEqual(before);
    // The trail is the backed-up chain (its own backup.created row came after the copy), then the
    // restore's row, and the whole chain still verifies.
    const auditAfter = await auditRows();
    expect(auditAfter.slice(0, -1).map((r) => [Number(r.seq), r.hash])).toEqual(
      auditBefore.map((r) => [Number(r.seq), r.hash]),
    );
    expect(auditAfter[auditAfter.length - 1]).toMatchObject({
      action: 'backup.restored',
      actor: 'system',
      outcome: 'success',
    });
    expect((await t.http.get('/api/v1/audit/verify').set(bearer(ceo)).expect(200)).body.data.ok).toBe(true);

    // The service keeps serving the restored data without a restart, and /health asks for none.
    await t.http.get('/api/v1/company').set(bearer(ceo)).expect(200);
    const health = (await t.http.get('/api/v1/health').expect(200)).body.data as Json;
    expect(health.subsystems).toContainEqual({ name: 'backup', wired: true, detail: null });
    const list = (await t.http.get('/api/v1/admin/backups').set(bearer(system)).expect(200)).body as Json;
    expect(list.data[0]).toMatchObject({
      backup_id: restored.safety_backup_id,
      trigger: 'pre_migration',
      compressed: false,
    });
    expect(list.data.map((b: Json) => b.backup_id)).toContain(manifest.backup_id);
  }, 120_000);

  it('should leave no corruption when a restore lands while tasks run', async () => {
    const mock = await startMockLlm();
    try {
      await t.http
        .post('/api/v1/providers')
        .set(bearer(ceo))
        .send({
          name: 'running',
          gateway_provider: 'openai',
          auth_type: 'none',
          base_url: `${mock.url}/v1`,
          models: [{ id: 'mock-small', cost_per_1k_input: 1, cost_per_1k_output: 2, max_context: 8000 }],
        })
        .expect(201);
      const agents = (await t.http.get('/api/v1/agents?limit=50').set(bearer(ceo)).expect(200)).body.data as Json[];
      const project = (await t.http.post('/api/v1/projects').set(bearer(ceo)).send({ name: 'Busy' }).expect(201)).body
        .data.id as string;
      const manifest = await backup(system);
      const backedUp = domainTables(await tableHashes(t));

      // Work in flight: each run lists files five times before it answers, so runs span the restore.
      const listing = { kind: 'tool_calls' as const, calls: [{ name: 'list_files', arguments: { path: '.' } }] };
      for (let i = 0; i < 8; i++) {
        mock.enqueue(listing, listing, listing, listing, listing, { kind: 'text', text: `Run ${i} done.` });
      }
      for (let i = 0; i < 8; i++) {
        await t.http
          .post('/api/v1/tasks')
          .set(bearer(ceo))
          .send({
            title: `Busy ${i}`,
            description: 'List the files, then answer.',
            type: 'development',
            project,
            created_by: 'ceo',
            assigned_to: agents[i % agents.length].name,
          })
          .expect(201);
      }
      await eventually(
        () => Promise.resolve(chatCount(mock)),
        (n) => n >= 4,
      );
      await t.http
        .post('/api/v1/admin/backups/restore')
        .set(bearer(system))
        .send({ backup_id: manifest.backup_id, confirm: true })
        .expect(200);

      // The runs cut off by the restore settle: no model call for a while and nothing in progress.
      let calls = -1;
      await eventually(
        async () => {
          const before = calls;
          calls = chatCount(mock);
          const running = await t.http.get('/api/v1/tasks?status=in_progress').set(bearer(ceo)).expect(200);
          await new Promise((r) => setTimeout(r, 300));
          return before === calls && running.body.pagination.total === 0;
        },
        (settled) => settled,
      );
      // What the runs of vanished tasks did after the restore must not leak into the restored data.
      expect(domainTables(await tableHashes(t))).toEqual(backedUp);
      const ds = t.app.get(DatabaseService).dataSource;
      if (backend === 'sqlite') {
        expect(await ds.query('PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
        expect(await ds.query('PRAGMA foreign_key_check')).toEqual([]);
      }
      expect((await t.http.get('/api/v1/audit/verify').set(bearer(ceo)).expect(200)).body.data.ok).toBe(true);

      // And the service goes on working on the restored data.
      mock.reset();
      mock.enqueue({ kind: 'text', text: 'After the restore.' });
      const after = await t.http
        .post('/api/v1/tasks')
        .set(bearer(ceo))
        .send({
          title: 'After',
          description: 'Answer.',
          type: 'development',
          project,
          created_by: 'ceo',
          assigned_to: agents[0].name,
        })
        .expect(201);
      await eventually(
        async () =>
          (
            await t.http
              .get(`/api/v1/tasks/${after.body.data.id as string}`)
              .set(bearer(ceo))
              .expect(200)
          ).body.data as Json,
        (task) => task.status === 'completed',
      );
    } finally {
      await mock.close();
    }
  }, 120_000);

  it('should refuse a tampered backup, naming the checksum, and change nothing', async () => {
    await setting('compression', 'false');
    const manifest = await backup();
    const entry = readdirSync(backupDir).find((name) => name.startsWith(manifest.backup_id))!;
    const file = join(backupDir, entry, 'persistence', backend === 'postgres' ? 'synthorg.dump' : 'synthorg.db');
    const bytes = readFileSync(file);
    bytes[Math.floor(bytes.length / 2)] ^= 0xff;
    writeFileSync(file, bytes);
    const before = await tableHashes(t);
    const backupsBefore = readdirSync(backupDir).length;

    const res = await t.http
      .post('/api/v1/admin/backups/restore')
      .set(bearer(ceo))
      .send({ backup_id: manifest.backup_id, confirm: true })
      .expect(500);
    expectError(res.body, ErrorCode.BackupManifestError, 'internal');
    expect(res.body.error_detail.detail).toMatch(/checksum/);
    expect(await tableHashes(t)).toEqual(before);
    expect(readdirSync(backupDir)).toHaveLength(backupsBefore);
    await setting('compression', 'true');
  }, 60_000);

  it('should refuse a backup whose manifest was altered', async () => {
    await setting('compression', 'false');
    const manifest = await backup();
    const entry = readdirSync(backupDir).find((name) => name.startsWith(manifest.backup_id))!;
    const path = join(backupDir, entry, 'manifest.json');
    writeFileSync(path, JSON.stringify({ ...manifest, components: ['persistence', 'elsewhere'] }));
    const res = await t.http
      .post('/api/v1/admin/backups/restore')
      .set(bearer(ceo))
      .send({ backup_id: manifest.backup_id, confirm: true })
      .expect(500);
    expectError(res.body, ErrorCode.BackupManifestError, 'internal');
    await setting('compression', 'true');
  }, 60_000);

  it('should store compressed backups as tar.gz and restore from them', async () => {
    const manifest = await backup();
    expect(readdirSync(backupDir)).toContain(`${manifest.backup_id}_manual.tar.gz`);
    const one = await t.http.get(`/api/v1/admin/backups/${manifest.backup_id}`).set(bearer(ceo)).expect(200);
    expect(one.body.data).toEqual(manifest);
    const res = await t.http
      .post('/api/v1/admin/backups/restore')
      .set(bearer(ceo))
      .send({ backup_id: manifest.backup_id, components: ['persistence'], confirm: true })
      .expect(200);
    expect(res.body.data.restored_components).toEqual(['persistence']);
    expect(readdirSync(backupDir).filter((name) => name.startsWith('_restore_'))).toEqual([]);
  }, 60_000);

  it('should answer the same manifest to a retried create with the same Idempotency-Key', async () => {
    const first = await t.http
      .post('/api/v1/admin/backups')
      .set(bearer(ceo))
      .set('Idempotency-Key', 'nightly-1')
      .expect(201);
    const again = await t.http
      .post('/api/v1/admin/backups')
      .set(bearer(ceo))
      .set('Idempotency-Key', 'nightly-1')
      .expect(201);
    expect(again.body.data).toEqual(first.body.data);
    expect(again.headers['idempotent-replayed']).toBe('true');
  }, 60_000);

  it('should answer 409 (4009) to a create while another runs', async () => {
    const answers = await Promise.all([1, 2, 3].map(() => t.http.post('/api/v1/admin/backups').set(bearer(ceo))));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toContain(201);
    expect(statuses).toContain(409);
    expectError(answers.find((a) => a.status === 409)!.body, ErrorCode.BackupInProgress, 'conflict');
  }, 60_000);

  it('should refuse a restore without confirm, of an unknown or malformed id, and of a missing component', async () => {
    const manifest = await backup();
    const unconfirmed = await t.http
      .post('/api/v1/admin/backups/restore')
      .set(bearer(ceo))
      .send({ backup_id: manifest.backup_id, confirm: false })
      .expect(400);
    expectError(unconfirmed.body, ErrorCode.BackupRestoreNotConfirmed, 'validation');
    for (const id of ['ffffffffffff', 'not-an-id']) {
      const res = await t.http
        .post('/api/v1/admin/backups/restore')
        .set(bearer(ceo))
        .send({ backup_id: id, confirm: true })
        .expect(404);
      expectError(res.body, ErrorCode.BackupNotFound, 'not_found');
      expectError(
        (await t.http.get(`/api/v1/admin/backups/${id}`).set(bearer(ceo)).expect(404)).body,
        ErrorCode.BackupNotFound,
      );
    }
    const missing = await t.http
      .post('/api/v1/admin/backups/restore')
      .set(bearer(ceo))
      .send({ backup_id: manifest.backup_id, components: ['config'], confirm: true })
      .expect(400);
    expectError(missing.body, ErrorCode.BackupComponentNotInBackup, 'validation');
  }, 60_000);

  it('should delete a backup (204), then answer 404 for it', async () => {
    const manifest = await backup();
    await t.http.delete(`/api/v1/admin/backups/${manifest.backup_id}`).set(bearer(ceo)).expect(204);
    const gone = await t.http.get(`/api/v1/admin/backups/${manifest.backup_id}`).set(bearer(ceo)).expect(404);
    expectError(gone.body, ErrorCode.BackupNotFound, 'not_found');
    await t.http.delete(`/api/v1/admin/backups/${manifest.backup_id}`).set(bearer(ceo)).expect(404);
  }, 60_000);
});
