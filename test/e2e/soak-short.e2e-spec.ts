import { testBackends } from '@app/testing';

import { postgresBinaries } from '../support';
import { runSoak } from '../soak/soak-runner';

/**
 * The soak's short version (about two and a half minutes): three replicas on a private Postgres,
 * a kill every 40 s, one rolling SIGTERM restart and one Postgres restart under load. The full one is
 * `npm run soak`.
 */

jest.setTimeout(600_000);

const runs = testBackends().includes('postgres') && postgresBinaries() !== null ? describe : describe.skip;

runs('soak (short)', () => {
  it('should keep every write, run and cost exactly once and take a killed replica’s work over in under 20 s', async () => {
    const report = await runSoak({
      durationSeconds: Number(process.env.SOAK_SHORT_SECONDS ?? 150),
      killEverySeconds: 40,
      replicas: 3,
      createsPerSecond: 2,
      port: 20432 + (process.pid % 500),
    });
    process.stdout.write(`soak (short): ${JSON.stringify(report)}\n`);
    expect(report.failures).toEqual([]);
    expect(report.kills).toBeGreaterThanOrEqual(2);
    expect(report.acknowledged).toBeGreaterThan(0);
  });
});
