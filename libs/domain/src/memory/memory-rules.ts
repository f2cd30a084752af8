/**
 * Agent memory rules (engine.md §14): categories, levels, the retrieval ranking and the greedy
 * packing of what is injected at a task's start. Pure: the memory module feeds them vectors and rows.
 */

export const MEMORY_CATEGORIES = ['working', 'episodic', 'semantic', 'procedural', 'social'] as const;
export type MemoryCategory = (typeof MEMORY_CATEGORIES)[number];

/** An agent's `memory.type`: none keeps nothing; the others say where an entry may be retrieved. */
export const MEMORY_LEVELS = ['none', 'session', 'project', 'persistent'] as const;
export type MemoryLevel = (typeof MEMORY_LEVELS)[number];

export const ORG_FACT_CATEGORIES = ['core_policy', 'adr', 'procedure', 'convention'] as const;
export type OrgFactCategory = (typeof ORG_FACT_CATEGORIES)[number];

/** Names of `memory.backend`: this design, and the reference's name accepted as an alias of it. */
export const MEMORY_BACKENDS = ['embedded', 'mem0'] as const;

/** The ranking's constants (§14). */
export const RANKING = {
  relevanceWeight: 0.7,
  recencyWeight: 0.3,
  /** Per hour of age: recency = exp(−decay·age_hours). */
  recencyDecay: 0.01,
  personalBoost: 0.1,
  defaultRelevance: 0.5,
  minScore: 0.3,
  maxResults: 20,
} as const;

/** The agent's level from its settings' `memory.type`, else the company default. */
export function memoryLevelOf(settings: unknown, defaultLevel: MemoryLevel): MemoryLevel {
  const memory = (settings as { memory?: { type?: unknown } } | null)?.memory;
  const type = memory?.type;
  return typeof type === 'string' && (MEMORY_LEVELS as readonly string[]).includes(type)
    ? (type as MemoryLevel)
    : defaultLevel;
}

/** Where a task's retrieval looks: every level of the agent's entries that may reach this task. */
export interface RetrievalScope {
  taskId: string;
  project: string;
}

/** Whether a stored entry may be retrieved for a task (session: the same task; project: the same project). */
export function entryInScope(
  entry: { level: string; taskId: string | null; project: string | null },
  scope: RetrievalScope,
): boolean {
  switch (entry.level) {
    case 'session':
      return entry.taskId === scope.taskId;
    case 'project':
      return entry.project === scope.project;
    default:
      return true;
  }
}

/** A candidate for injection: its vector relevance (cosine, 0..1; null when unknown) and age. */
export interface RankCandidate {
  relevance: number | null;
  createdAt: Date;
  /** The retrieving agent's own entry (org facts are not). */
  personal: boolean;
}

/** The §14 combined score: 0.7·relevance (own entries +0.1, capped at 1) + 0.3·exp(−0.01·age_hours). */
export function combinedScore(candidate: RankCandidate, now: Date): number {
  const base = candidate.relevance ?? RANKING.defaultRelevance;
  const relevance = Math.min(1, base + (candidate.personal ? RANKING.personalBoost : 0));
  const ageHours = Math.max(0, (now.getTime() - candidate.createdAt.getTime()) / 3_600_000);
  return RANKING.relevanceWeight * relevance + RANKING.recencyWeight * Math.exp(-RANKING.recencyDecay * ageHours);
}

/** Ranks candidates best first, drops those scoring under 0.3 and keeps at most 20. */
export function rankMemories<T extends RankCandidate>(
  candidates: readonly T[],
  now: Date,
  limit: number = RANKING.maxResults,
): (T & { score: number })[] {
  return candidates
    .map((c) => ({ ...c, score: combinedScore(c, now) }))
    .filter((c) => c.score >= RANKING.minScore)
    .sort((a, b) => b.score - a.score)
    .slice(0, limit);
}

/** Rough tokens of a text (four characters a token). */
export function tokensOf(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Greedily keeps ranked lines, in order, while their tokens fit the budget (a line too long is skipped). */
export function packWithinBudget<T>(ranked: readonly T[], lineOf: (item: T) => string, budgetTokens: number): T[] {
  const kept: T[] = [];
  let used = 0;
  for (const item of ranked) {
    const cost = tokensOf(lineOf(item)) + 1;
    if (used + cost <= budgetTokens) {
      kept.push(item);
      used += cost;
    }
  }
  return kept;
}

/** The vector as little-endian float32 bytes, as stored with the row. */
export function encodeVector(vector: ArrayLike<number>): Uint8Array {
  const bytes = new Uint8Array(vector.length * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < vector.length; i += 1) {
    view.setFloat32(i * 4, vector[i], true);
  }
  return bytes;
}

/** A stored vector back as float32 values (a copy, aligned). */
export function decodeVector(bytes: Uint8Array): Float32Array {
  const out = new Float32Array(Math.floor(bytes.byteLength / 4));
  const view = new DataView(bytes.buffer, bytes.byteOffset, out.length * 4);
  for (let i = 0; i < out.length; i += 1) {
    out[i] = view.getFloat32(i * 4, true);
  }
  return out;
}

/** The vector scaled to unit length (a zero vector stays zero). */
export function normalise(vector: ArrayLike<number>): Float32Array {
  let sum = 0;
  for (let i = 0; i < vector.length; i += 1) {
    sum += vector[i] * vector[i];
  }
  const norm = Math.sqrt(sum);
  const out = new Float32Array(vector.length);
  for (let i = 0; i < vector.length; i += 1) {
    out[i] = norm === 0 ? 0 : vector[i] / norm;
  }
  return out;
}

/** Dot product of two unit vectors: their cosine similarity, clamped to 0..1 (opposites are irrelevant). */
export function relevanceOf(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) {
    return 0;
  }
  let dot = 0;
  for (let i = 0; i < a.length; i += 1) {
    dot += a[i] * b[i];
  }
  return Math.max(0, Math.min(1, dot));
}
