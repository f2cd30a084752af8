// The security pipeline's overhead per tool call (part of `npm run bench`; alone: BENCH_ONLY=security):
// evaluateToolCall on a write_file call whose content is 100 kB of source text, every detector on.
// Prints p50 and p99 per call; the target is a p99 under 0.5 ms.
// The domain alone: the bench runs without the Nest application.
// eslint-disable-next-line no-restricted-imports
import { evaluateToolCall, type SecurityPolicy } from '../../libs/domain/src/security';

import { median } from './harness';

const CALLS = Number(process.env.BENCH_SECURITY_CALLS ?? 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

const POLICY: SecurityPolicy = {
  mode: 'active',
  hardDeny: ['deploy:production', 'db:admin', 'org:fire'],
  autoApprove: ['code:read', 'docs:write'],
  detectors: { credential: true, path_traversal: true, destructive: true, data_leak: true },
  maxArgumentLength: 200_000,
};

function sourceText(size: number): string {
  const line = 'export function add(a: number, b: number): number { return a + b; } // plain code line\n';
  return line.repeat(Math.ceil(size / line.length)).slice(0, size);
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

export function runSecurityBench(): Promise<void> {
  const input = {
    tool: 'write_file',
    action: 'code:write',
    arguments: { path: 'src/math.ts', content: sourceText(100_000), mode: 'overwrite' },
    autonomy: 'semi' as const,
    permission: { granted: true, rule: 'access_level' as const, reason: 'standard' },
  };
  const p50s: number[] = [];
  const p99s: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const times: number[] = [];
    for (let i = 0; i < CALLS; i += 1) {
      const started = performance.now();
      const verdict = evaluateToolCall(input, POLICY);
      times.push(performance.now() - started);
      if (verdict.verdict !== 'allow') {
        throw new Error(`the bench call was not allowed: ${verdict.reason}`);
      }
    }
    times.sort((a, b) => a - b);
    p50s.push(percentile(times, 50));
    p99s.push(percentile(times, 99));
  }
  const p99 = median(p99s);
  process.stdout.write(
    `security pipeline, 100 kB argument: p50 ${median(p50s).toFixed(3)} ms, p99 ${p99.toFixed(3)} ms ` +
      `(target p99 < 0.5 ms: ${p99 < 0.5 ? 'met' : 'missed'})\n`,
  );
  return Promise.resolve();
}
