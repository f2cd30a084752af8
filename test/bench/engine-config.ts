// The engine benchmark's settings, from its environment variables (see engine.ts).
import { TASK_STATUSES } from '@app/domain';

export type Backend = 'sqlite' | 'postgres';

const envInt = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback);
  return Number.isInteger(value) && value >= 1 ? value : fallback;
};

export const TASKS = envInt('BENCH_ENGINE_TASKS', 1000);
/** Tasks per overhead variant. */
export const OVERHEAD_TASKS = envInt('BENCH_ENGINE_OVERHEAD_TASKS', 150);
export const SLOTS = Math.min(envInt('BENCH_ENGINE_CONCURRENCY', 16), 64);
/** Rows of history per table before the runs; 0: none. */
export const HISTORY = ((value) => (Number.isInteger(value) && value >= 0 ? value : 100_000))(
  Number(process.env.BENCH_ENGINE_HISTORY ?? 100_000),
);
export const DEADLINE_MS = envInt('BENCH_ENGINE_DEADLINE_SECONDS', 300) * 1000;
/** No completion for this long (and the deadline not yet reached): the wait gives up early. */
export const STALL_MS = envInt('BENCH_ENGINE_STALL_SECONDS', 30) * 1000;
export const BACKENDS = (process.env.BENCH_ENGINE_BACKENDS ?? 'sqlite,postgres')
  .split(',')
  .map((b) => b.trim())
  .filter((b): b is Backend => b === 'sqlite' || b === 'postgres');
/** Keep each backend's scratch directory (the service's logs and workspace) for a closer look. */
export const KEEP = process.env.BENCH_ENGINE_KEEP === '1';
export const CREATE_IN_FLIGHT = 20;
export interface Variant {
  name: string;
  toolTurns: number;
  tool: 'list_files' | 'write_file';
}

const ALL_VARIANTS: readonly Variant[] = [
  { name: '4 list_files turns + text', toolTurns: 4, tool: 'list_files' },
  { name: 'text only', toolTurns: 0, tool: 'list_files' },
  { name: '2 write_file turns + text', toolTurns: 2, tool: 'write_file' },
];
/** BENCH_ENGINE_VARIANTS: a comma list of variant names' first words (list_files, text, write_file). */
export const VARIANTS = ((only) =>
  only ? ALL_VARIANTS.filter((v) => only.includes(v.name === 'text only' ? 'text' : v.tool)) : ALL_VARIANTS)(
  process.env.BENCH_ENGINE_VARIANTS?.split(',').map((v) => v.trim()),
);
export const OVERHEAD_TARGET_MS = 5;
export const POLL_MS = 250;
export const STATUSES = TASK_STATUSES;
/** The idle gap before each sample of the fake's round trip as the engine meets it (once per call, after idling). */
export const IDLE_GAP_MS = 20;
export const IDLE_SAMPLES = 60;
