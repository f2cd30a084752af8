import { readdirSync } from 'node:fs';
import { join } from 'node:path';

import { eventually, testBackends } from '@app/testing';

import { BackupScheduler } from '../../apps/api/src/modules/backup/backup.scheduler';
import { bearer, setupCeo, startTestApp, type TestApp } from '../support';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A scheduled hour lasts this long here, so the schedule and retention run within a test. */
const SHORT_HOUR_MS = 150;

describe.each(testBackends())('backup scheduler on %s', (backend) => {
  let t: TestApp;
  let ceo: string;
  let scheduler: BackupScheduler;

  const setting = (key: string, value: string) =>
    t.http.put(`/api/v1/settings/backup/${key}`).set(bearer(ceo)).send({ value }).expect(200);
  const backups = async (): Promise<Json[]> =>
    (await t.http.get('/api/v1/admin/backups').set(bearer(ceo)).expect(200)).body.data as Json[];

  beforeAll(async () => {
    t = await startTestApp({ backend });
    ceo = await setupCeo(t);
    scheduler = t.app.get(BackupScheduler);
    scheduler.hourMs = SHORT_HOUR_MS;
  }, 60_000);

  afterAll(async () => {
    await t?.close();
  });

  it('should start, run with retention, and stop as the settings change, without a restart', async () => {
    expect(scheduler.scheduled).toBe(false);
    await t.http.post('/api/v1/admin/backups').set(bearer(ceo)).expect(201);
    await t.http
      .post('/api/v1/admin/backups/restore')
      .set(bearer(ceo))
      .send({
        backup_id: (await backups())[0]?.backup_id,
        confirm: true,
      });
    await setting('max_count', '3');
    await setting('compression', 'false');
    await setting('enabled', 'true');
    expect(scheduler.scheduled).toBe(true);

    const seen = new Set<string>();
    await eventually(
      async () => {
        for (const b of await backups()) {
          if (b.trigger === 'scheduled') {
            seen.add(b.backup_id as string);
          }
        }
        return seen.size;
      },
      (count) => count >= 5,
      30_000,
    );
    const kept = await backups();
    // max_count 3, but the pre_migration safety backup is never pruned (and still counts).
    expect(kept.filter((b) => b.trigger === 'pre_migration')).toHaveLength(1);
    expect(kept.length).toBeLessThanOrEqual(4);
    expect(kept.filter((b) => b.trigger === 'manual')).toHaveLength(0);

    await setting('enabled', 'false');
    expect(scheduler.scheduled).toBe(false);
    // A run that started before the switch may still finish; after it, nothing new appears.
    await new Promise((resolve) => setTimeout(resolve, 4 * SHORT_HOUR_MS));
    const settled = readdirSync(join(t.logDir, 'backups')).sort();
    await new Promise((resolve) => setTimeout(resolve, 4 * SHORT_HOUR_MS));
    expect(readdirSync(join(t.logDir, 'backups')).sort()).toEqual(settled);
  }, 60_000);
});
