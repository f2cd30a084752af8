/**
 * Memory consolidation rules (engine.md §14 options): what a consolidation pass removes from one
 * agent's entries. Pure: the memory module feeds it the index's entries and removes what it answers.
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** How often consolidation runs (`memory.consolidation_interval`), in milliseconds; null: never. */
export function consolidationPeriodMs(interval: string): number | null {
  switch (interval) {
    case 'hourly':
      return HOUR_MS;
    case 'daily':
      return DAY_MS;
    case 'weekly':
      return 7 * DAY_MS;
    default:
      return null;
  }
}

/** An entry as consolidation weighs it (archived entries are read-only and never passed in). */
export interface ConsolidationEntry {
  id: string;
  category: string;
  createdAt: Date;
  expiresAt: Date | null;
  embedder: string;
  vector: Float32Array;
}

export interface ConsolidationRules {
  /** Days an entry is kept (the agent's `memory.retention_days`, else the company's); null: forever. */
  retentionDays: number | null;
  /** Days per category, overriding `retentionDays` for that category. */
  categoryRetentionDays: Readonly<Record<string, number>>;
  /** Most entries an agent keeps (`memory.max_memories_per_agent`). */
  maxEntries: number;
  /** Cosine similarity from which two entries of one category are the same memory. */
  duplicateThreshold: number;
}

export type RemovalReason = 'expired' | 'retention' | 'duplicate' | 'overflow';

export interface Removal {
  id: string;
  reason: RemovalReason;
  /** For a duplicate: the entry kept in its place. */
  keptId?: string;
}

/**
 * How much an entry is worth keeping: learned knowledge (semantic, procedural) outweighs records of
 * work (episodic, social), which outweigh scratch (working); within a weight, newer is worth more.
 */
export const CATEGORY_VALUE: Readonly<Record<string, number>> = {
  semantic: 1,
  procedural: 1,
  social: 0.6,
  episodic: 0.5,
  working: 0.2,
};

/** An entry's usefulness at `now`: its category's value times a recency that halves in 30 days. */
export function usefulness(entry: Pick<ConsolidationEntry, 'category' | 'createdAt'>, now: Date): number {
  const ageDays = Math.max(0, (now.getTime() - entry.createdAt.getTime()) / DAY_MS);
  return (CATEGORY_VALUE[entry.category] ?? 0.5) * Math.pow(0.5, ageDays / 30);
}

function cosine(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) {
    return 0;
  }
  let dot = 0;
  for (let i = 0; i < a.length; i += 1) {
    dot += a[i] * b[i];
  }
  return dot;
}

/**
 * What one agent's consolidation removes, in this order: expired entries (`expires_at` passed),
 * entries past their category's or the agent's retention, near-duplicates (cosine ≥ the threshold,
 * same category and embedder: the newest of a group stays), then, while more than `maxEntries`
 * remain, the least useful (lowest category value, oldest first). Every id appears at most once.
 */
export function planConsolidation(
  entries: readonly ConsolidationEntry[],
  rules: ConsolidationRules,
  now: Date,
): Removal[] {
  const removals: Removal[] = [];
  const kept: ConsolidationEntry[] = [];
  for (const entry of entries) {
    const days = rules.categoryRetentionDays[entry.category] ?? rules.retentionDays;
    if (entry.expiresAt && entry.expiresAt.getTime() <= now.getTime()) {
      removals.push({ id: entry.id, reason: 'expired' });
    } else if (days !== null && days > 0 && now.getTime() - entry.createdAt.getTime() > days * DAY_MS) {
      removals.push({ id: entry.id, reason: 'retention' });
    } else {
      kept.push(entry);
    }
  }

  // Newest first, so the entry kept for a group of duplicates is the most recent statement of it.
  const newestFirst = [...kept].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? -1 : 1));
  const survivors: ConsolidationEntry[] = [];
  const byGroup = new Map<string, ConsolidationEntry[]>();
  for (const entry of newestFirst) {
    const group = `${entry.category}\u0000${entry.embedder}`;
    const others = byGroup.get(group) ?? [];
    const twin = others.find((other) => cosine(other.vector, entry.vector) >= rules.duplicateThreshold);
    if (twin) {
      removals.push({ id: entry.id, reason: 'duplicate', keptId: twin.id });
      continue;
    }
    others.push(entry);
    byGroup.set(group, others);
    survivors.push(entry);
  }

  const excess = survivors.length - Math.max(0, rules.maxEntries);
  if (excess > 0) {
    const leastUseful = survivors
      .map((entry) => ({ entry, value: usefulness(entry, now) }))
      .sort((a, b) => a.value - b.value || a.entry.createdAt.getTime() - b.entry.createdAt.getTime())
      .slice(0, excess);
    for (const { entry } of leastUseful) {
      removals.push({ id: entry.id, reason: 'overflow' });
    }
  }
  return removals;
}

/** The agent's own `memory.retention_days` (≥ 1) from its settings, else null. */
export function agentRetentionDays(settings: unknown): number | null {
  const days = (settings as { memory?: { retention_days?: unknown } } | null)?.memory?.retention_days;
  return typeof days === 'number' && Number.isInteger(days) && days >= 1 ? days : null;
}

/**
 * `memory.category_retention_days`: an object from category to whole days (≥ 1); throws a message
 * saying what is wrong otherwise.
 */
export function parseCategoryRetention(value: unknown, categories: readonly string[]): Record<string, number> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new TypeError('expected an object from category to days');
  }
  const out: Record<string, number> = {};
  for (const [category, days] of Object.entries(value)) {
    if (!categories.includes(category)) {
      throw new TypeError(`unknown category ${category} (one of ${categories.join(', ')})`);
    }
    if (typeof days !== 'number' || !Number.isInteger(days) || days < 1) {
      throw new TypeError(`${category}: days must be a whole number of at least 1`);
    }
    out[category] = days;
  }
  return out;
}

/** Folded ids a merged entry's metadata keeps (`merged_from`). */
const MERGED_IDS_KEPT = 50;

/** One side of a merge of near-duplicates: an entry's id, content and metadata. */
export interface MergeSide {
  id: string;
  content: string;
  metadata: Readonly<Record<string, unknown>>;
}

/** The kept entry's content and metadata after near-duplicates were folded into it. */
export interface MergedEntry {
  content: string;
  metadata: Record<string, unknown>;
}

/** A text's sentences (split after `.`, `!` or `?` followed by white space), trimmed, empty ones dropped. */
function sentencesOf(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

const comparable = (text: string) => text.toLowerCase().replace(/\s+/g, ' ').trim();

/**
 * Folds near-duplicates into the entry kept for them (the newest of the group), by one rule:
 *
 * - content: the kept entry's, then each folded entry's sentences that the content does not already
 *   contain (compared case-insensitively, white space collapsed), in the order given (newest first),
 *   each only while the whole stays within `maxChars`;
 * - metadata: the kept entry's keys stay as they are; a key only a folded entry has is added (the
 *   first folded entry holding it wins);
 * - the merge is recorded in the metadata: `merged_from` (the folded ids, comma-separated, after any
 *   earlier merge's; the last 50), `merged_count` (entries folded in so far) and `merged_at` (`now`,
 *   ISO 8601).
 */
export function mergeDuplicates(
  kept: MergeSide,
  folded: readonly MergeSide[],
  maxChars: number,
  now: Date,
): MergedEntry {
  let content = kept.content;
  let seen = comparable(content);
  const metadata: Record<string, unknown> = { ...kept.metadata };
  for (const other of folded) {
    for (const sentence of sentencesOf(other.content)) {
      const key = comparable(sentence);
      if (key === '' || seen.includes(key)) {
        continue;
      }
      const next = content === '' ? sentence : `${content} ${sentence}`;
      if (next.length <= maxChars) {
        content = next;
        seen = comparable(content);
      }
    }
    for (const [key, value] of Object.entries(other.metadata)) {
      if (!(key in metadata) && !key.startsWith('merged_')) {
        metadata[key] = value;
      }
    }
  }
  const earlier =
    typeof kept.metadata.merged_from === 'string' && kept.metadata.merged_from !== ''
      ? kept.metadata.merged_from.split(',')
      : [];
  const earlierCount = typeof kept.metadata.merged_count === 'number' ? kept.metadata.merged_count : earlier.length;
  metadata.merged_from = [...earlier, ...folded.map((f) => f.id)].slice(-MERGED_IDS_KEPT).join(',');
  metadata.merged_count = earlierCount + folded.length;
  metadata.merged_at = now.toISOString();
  return { content, metadata };
}
