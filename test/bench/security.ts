// The security pipeline's overhead per tool call (part of `npm run bench`; alone: BENCH_ONLY=security):
// evaluateToolCall on a write_file call whose content is 100 kB of source text, every detector on.
// Prints p50 and p99 per call, in wall-clock time and in the process's CPU time (the CPU figure leaves
// out time the process spent descheduled on a busy machine); the target is a p99 under 0.5 ms. A
// second line measures the output scan of a 100 kB tool result (or final answer).
// The domain alone: the bench runs without the Nest application.
// eslint-disable-next-line no-restricted-imports
import { evaluateToolCall, scanOutput, type SecurityPolicy } from '../../libs/domain/src/security';

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

/** Per-call wall-clock and CPU-time percentiles (ms) of `call`, medians over the rounds. */
function measure(call: () => void): { wall: [number, number]; cpu: [number, number] } {
  const wall50: number[] = [];
  const wall99: number[] = [];
  const cpu50: number[] = [];
  const cpu99: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const wall: number[] = [];
    const cpu: number[] = [];
    for (let i = 0; i < CALLS; i += 1) {
      const usage = process.cpuUsage();
      const started = performance.now();
      call();
      wall.push(performance.now() - started);
      const spent = process.cpuUsage(usage);
      cpu.push((spent.user + spent.system) / 1000);
    }
    wall.sort((a, b) => a - b);
    cpu.sort((a, b) => a - b);
    wall50.push(percentile(wall, 50));
    wall99.push(percentile(wall, 99));
    cpu50.push(percentile(cpu, 50));
    cpu99.push(percentile(cpu, 99));
  }
  return { wall: [median(wall50), median(wall99)], cpu: [median(cpu50), median(cpu99)] };
}

function report(label: string, figures: { wall: [number, number]; cpu: [number, number] }): void {
  const verdict = (p99: number): string => (p99 < 0.5 ? 'met' : 'missed');
  const [w50, w99] = figures.wall;
  const [c50, c99] = figures.cpu;
  process.stdout.write(
    `${label}: wall p50 ${w50.toFixed(3)} ms, p99 ${w99.toFixed(3)} ms (target p99 < 0.5 ms: ${verdict(w99)}); ` +
      `cpu p50 ${c50.toFixed(3)} ms, p99 ${c99.toFixed(3)} ms (${verdict(c99)})\n`,
  );
}

export function runSecurityBench(): Promise<void> {
  const content = sourceText(100_000);
  const input = {
    tool: 'write_file',
    action: 'code:write',
    arguments: { path: 'src/math.ts', content, mode: 'overwrite' },
    autonomy: 'semi' as const,
    permission: { granted: true, rule: 'access_level' as const, reason: 'standard' },
  };
  report(
    'security pipeline, 100 kB argument',
    measure(() => {
      const verdict = evaluateToolCall(input, POLICY);
      if (verdict.verdict !== 'allow') {
        throw new Error(`the bench call was not allowed: ${verdict.reason}`);
      }
    }),
  );
  report(
    'output scan, 100 kB result',
    measure(() => {
      if (scanOutput(content, 'redact').outcome !== 'clean') {
        throw new Error('the bench output was not clean');
      }
    }),
  );
  return Promise.resolve();
}
