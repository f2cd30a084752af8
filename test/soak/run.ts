import { runSoak } from './soak-runner';

/**
 * `npm run soak`: the full soak (SOAK_MINUTES, default 30; SOAK_KILL_EVERY_SECONDS, default 60;
 * SOAK_CREATES_PER_SECOND, default 2; SOAK_PG_PORT, default 25432 — a private Postgres cluster).
 * Prints the figures as JSON and exits 1 when a check failed.
 */
async function main(): Promise<void> {
  const env = (name: string, fallback: number): number => Number(process.env[name] ?? fallback);
  const report = await runSoak({
    durationSeconds: env('SOAK_MINUTES', 30) * 60,
    killEverySeconds: env('SOAK_KILL_EVERY_SECONDS', 60),
    replicas: 3,
    createsPerSecond: env('SOAK_CREATES_PER_SECOND', 2),
    port: env('SOAK_PG_PORT', 25432),
  });
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  process.exit(report.failures.length === 0 ? 0 : 1);
}

main().catch((error: unknown) => {
  process.stderr.write(`soak failed to run: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
