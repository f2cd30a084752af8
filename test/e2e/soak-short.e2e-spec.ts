import { testBackends } from '@app/testing';

import { postgresBinaries } from '../support';
import { runSoak } from '../soak/soak-runner';

/**
 * The soak's short version: three replicas on a private Postgres under load, 15 s of steady load,
 * then one kill (of a replica with runs in flight), one rolling restart and one Postgres restart
 * back to back, and the checks once every
 * task has finished (about a minute and a half on two cores). The full one is `npm run soak`. The
 * longest file of the suite: jest starts it first (.ci/jest-sequencer.js).
 */

jest.setTimeout(600_000);

const runs = testBackends().includes('postgres') && postgresBinaries() !== null ? describe : describe.skip;

runs('soak (short)', () => {
  it('should keep every write, run and cost exactly once and take a killed replica’s work over in under 20 s', async () => {
    const report = await runSoak({
      durationSeconds: Number(process.env.SOAK_SHORT_SECONDS ?? 20),
      killEverySeconds: 15,
      rollingAtSeconds: 16,
      postgresAtSeconds: 17,
      victim: 'busy',
      replicas: 3,
      createsPerSecond: 2,
      port: 20432 + (process.pid % 500),
    });
    process.stdout.write(`soak (short): ${JSON.stringify(report)}\n`);
    expect(report.failures).toEqual([]);
    expect(report.kills).toBeGreaterThanOrEqual(1);
    // The kill caught runs in flight, and their takeover was timed (under 20 s: a failure above).
    expect(report.recoveryMs.samples).toBeGreaterThanOrEqual(1);
    expect(report.rollingRestarts).toBe(1);
    expect(report.postgresRestarts).toBe(1);
    expect(report.acknowledged).toBeGreaterThan(0);
  });
});
