import { exactSearch, MetricKind } from 'usearch';

import { entryInScope, type RetrievalScope } from '@app/domain';
import type { MemoryEntryEntity, OrgFactEntity } from '@app/persistence';

/** An entry as the index keeps it: what retrieval filters, ranks and injects (its vector is kept apart). */
export interface IndexedEntry {
  id: string;
  agentId: string;
  category: string;
  level: string;
  project: string | null;
  taskId: string | null;
  content: string;
  createdAt: Date;
  expiresAt: Date | null;
  embedder: string;
}

export interface IndexedFact {
  id: string;
  category: string;
  content: string;
  department: string | null;
  createdAt: Date;
  embedder: string;
}

/** A search hit: the item and its relevance to the query (cosine, 0..1). */
export interface Hit<T> {
  item: T;
  relevance: number;
}

/** What a search keeps of an agent's entries; every test is on precomputed per-slot data, no callback. */
export interface EntryFilter {
  /** Only this category. */
  category?: string;
  /** Only entries whose level lets them reach this task (session: the task; project: its project). */
  scope?: RetrievalScope;
  /** Entries expiring at or before this time (ms since the epoch) are left out. */
  now?: number;
}

export function indexedEntry(row: MemoryEntryEntity): IndexedEntry {
  return {
    id: row.id,
    agentId: row.agentId,
    category: row.category,
    level: row.level,
    project: row.project,
    taskId: row.taskId,
    content: row.content,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    embedder: row.embedder,
  };
}

export function indexedFact(row: OrgFactEntity): IndexedFact {
  return {
    id: row.id,
    category: row.category,
    content: row.content,
    department: row.department,
    createdAt: row.createdAt,
    embedder: row.embedder,
  };
}

/** Rows the native exact search is asked for, per row wanted, before the filter (then four times more). */
const OVER_FETCH = 2;
/** Rows from which a slab is searched by usearch's native exact search rather than the JavaScript scan. */
export const NATIVE_SEARCH_FROM = 256;

const LEVEL_ANY = 0;
const LEVEL_SESSION = 1;
const LEVEL_PROJECT = 2;
const levelCode = (level: string): number =>
  level === 'session' ? LEVEL_SESSION : level === 'project' ? LEVEL_PROJECT : LEVEL_ANY;

/** Small integer codes of categories, shared by every slab (a handful of values). */
const categoryCodes = new Map<string, number>();
function categoryCode(category: string): number {
  let code = categoryCodes.get(category);
  if (code === undefined) {
    code = categoryCodes.size + 1;
    categoryCodes.set(category, code);
  }
  return code;
}

/** Copies a stored vector (little-endian float32 bytes) or a vector into `out` at `offset`. */
function writeVector(out: Float32Array, offset: number, vector: Float32Array | Uint8Array, dims: number): void {
  if (vector instanceof Float32Array) {
    out.set(vector.subarray(0, dims), offset);
    return;
  }
  const view = new DataView(vector.buffer, vector.byteOffset, dims * 4);
  for (let i = 0; i < dims; i += 1) {
    out[offset + i] = view.getFloat32(i * 4, true);
  }
}

const dimsOf = (vector: Float32Array | Uint8Array): number =>
  vector instanceof Float32Array ? vector.length : Math.floor(vector.byteLength / 4);

/**
 * The items of one owner (an agent, or the organisation's facts) made by one embedder: their vectors
 * in one contiguous matrix (row i at i·dims), and per row the item and the data filters test (level
 * code, category code, expiry), so a search is a scan of typed arrays with no allocation per row.
 * Removal moves the last row into the freed one.
 */
class Slab<T extends { id: string }> {
  readonly items: T[] = [];
  private vectors: Float32Array;
  private levels: Uint8Array;
  private categories: Uint16Array;
  private expires: Float64Array;
  private readonly slotOf = new Map<string, number>();

  constructor(readonly dims: number) {
    this.vectors = new Float32Array(16 * dims);
    this.levels = new Uint8Array(16);
    this.categories = new Uint16Array(16);
    this.expires = new Float64Array(16);
  }

  get size(): number {
    return this.items.length;
  }

  has(id: string): boolean {
    return this.slotOf.has(id);
  }

  put(item: T, vector: Float32Array | Uint8Array, level: string, category: string, expiresAt: Date | null): void {
    let slot = this.slotOf.get(item.id);
    if (slot === undefined) {
      slot = this.items.length;
      this.grow(slot + 1);
      this.items.push(item);
      this.slotOf.set(item.id, slot);
    } else {
      this.items[slot] = item;
    }
    writeVector(this.vectors, slot * this.dims, vector, this.dims);
    this.levels[slot] = levelCode(level);
    this.categories[slot] = categoryCode(category);
    this.expires[slot] = expiresAt ? expiresAt.getTime() : Number.POSITIVE_INFINITY;
  }

  private grow(needed: number): void {
    const capacity = this.levels.length;
    if (needed <= capacity) {
      return;
    }
    const next = Math.max(needed, capacity * 2);
    const vectors = new Float32Array(next * this.dims);
    vectors.set(this.vectors);
    this.vectors = vectors;
    const levels = new Uint8Array(next);
    levels.set(this.levels);
    this.levels = levels;
    const categories = new Uint16Array(next);
    categories.set(this.categories);
    this.categories = categories;
    const expires = new Float64Array(next);
    expires.set(this.expires);
    this.expires = expires;
  }

  remove(id: string): boolean {
    const slot = this.slotOf.get(id);
    if (slot === undefined) {
      return false;
    }
    this.slotOf.delete(id);
    const last = this.items.length - 1;
    const moved = this.items.pop() as T;
    if (slot !== last) {
      this.items[slot] = moved;
      this.slotOf.set(moved.id, slot);
      this.vectors.copyWithin(slot * this.dims, last * this.dims, (last + 1) * this.dims);
      this.levels[slot] = this.levels[last];
      this.categories[slot] = this.categories[last];
      this.expires[slot] = this.expires[last];
    }
    return true;
  }

  /** Shrinks the arrays to the rows held (after a rebuild: growth by doubling leaves up to half unused). */
  compact(): void {
    const count = this.items.length;
    if (count === this.levels.length) {
      return;
    }
    this.vectors = this.vectors.slice(0, Math.max(1, count) * this.dims);
    this.levels = this.levels.slice(0, Math.max(1, count));
    this.categories = this.categories.slice(0, Math.max(1, count));
    this.expires = this.expires.slice(0, Math.max(1, count));
  }

  /**
   * The best `limit` rows passing the filter, by relevance to the query (cosine clamped to 0..1).
   * From `nativeFrom` rows on, the scan is usearch's exact search (SIMD dot products over the same
   * matrix, in native code): it answers the best rows by relevance, over-fetched, and the filter
   * keeps those that pass; when too few pass, it asks for four times as many, up to every row. Below
   * that, and as the reference the native path is tested against, the scan is {@link scan}.
   */
  search(query: Float32Array, limit: number, filter: EntryFilter, top: TopSlots, nativeFrom: number): void {
    const count = this.items.length;
    if (query.length !== this.dims || limit <= 0 || count === 0) {
      return;
    }
    if (count < nativeFrom) {
      this.scan(query, filter, top);
      return;
    }
    const wantCategory = this.categoryWanted(filter);
    if (wantCategory === -1) {
      return;
    }
    const matrix = this.vectors.subarray(0, count * this.dims);
    for (let fetch = Math.min(count, limit * OVER_FETCH); ; fetch = Math.min(count, fetch * 4)) {
      top.clear();
      const matches = exactSearch(matrix, query, this.dims, fetch, MetricKind.IP, 1);
      const keys = matches.keys;
      const distances = matches.distances;
      for (let i = 0; i < keys.length && top.size < limit; i += 1) {
        const row = Number(keys[i]);
        if (this.passes(row, wantCategory, filter)) {
          const relevance = 1 - distances[i];
          top.offer(row, relevance < 0 ? 0 : relevance > 1 ? 1 : relevance);
        }
      }
      if (top.size >= limit || fetch >= count) {
        return;
      }
    }
  }

  private categoryWanted(filter: EntryFilter): number {
    return filter.category === undefined ? 0 : (categoryCodes.get(filter.category) ?? -1);
  }

  private passes(row: number, wantCategory: number, filter: EntryFilter): boolean {
    if (wantCategory !== 0 && this.categories[row] !== wantCategory) {
      return false;
    }
    if (filter.now !== undefined && this.expires[row] <= filter.now) {
      return false;
    }
    if (this.levels[row] !== LEVEL_ANY && filter.scope) {
      const item = this.items[row] as unknown as { level: string; taskId: string | null; project: string | null };
      return entryInScope(item, filter.scope);
    }
    return true;
  }

  /** The exact scan in JavaScript: a dot product with every row, kept when it beats the worst kept and passes. */
  scan(query: Float32Array, filter: EntryFilter, top: TopSlots): void {
    const dims = this.dims;
    const vectors = this.vectors;
    const count = this.items.length;
    const wantCategory = this.categoryWanted(filter);
    if (wantCategory === -1 || query.length !== dims) {
      return;
    }
    const tail = dims & ~3;
    for (let row = 0, base = 0; row < count; row += 1, base += dims) {
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      let i = 0;
      for (; i < tail; i += 4) {
        s0 += query[i] * vectors[base + i];
        s1 += query[i + 1] * vectors[base + i + 1];
        s2 += query[i + 2] * vectors[base + i + 2];
        s3 += query[i + 3] * vectors[base + i + 3];
      }
      for (; i < dims; i += 1) {
        s0 += query[i] * vectors[base + i];
      }
      let relevance = s0 + s1 + s2 + s3;
      relevance = relevance < 0 ? 0 : relevance > 1 ? 1 : relevance;
      if (top.wouldKeep(relevance) && this.passes(row, wantCategory, filter)) {
        top.offer(row, relevance);
      }
    }
  }
}

/**
 * The best `limit` (slot, relevance) pairs offered, best first (ties: the earlier offered first), in
 * typed arrays: a row no better than the worst kept one costs one comparison.
 */
class TopSlots {
  readonly slots: Int32Array;
  readonly scores: Float64Array;
  size = 0;

  constructor(readonly limit: number) {
    this.slots = new Int32Array(Math.max(0, limit));
    this.scores = new Float64Array(Math.max(0, limit));
  }

  clear(): void {
    this.size = 0;
  }

  wouldKeep(relevance: number): boolean {
    return this.limit > 0 && (this.size < this.limit || relevance > this.scores[this.size - 1]);
  }

  offer(slot: number, relevance: number): void {
    let at = this.size < this.limit ? this.size : this.limit - 1;
    while (at > 0 && this.scores[at - 1] < relevance) {
      this.scores[at] = this.scores[at - 1];
      this.slots[at] = this.slots[at - 1];
      at -= 1;
    }
    this.scores[at] = relevance;
    this.slots[at] = slot;
    if (this.size < this.limit) {
      this.size += 1;
    }
  }

  hits<T>(items: readonly T[]): Hit<T>[] {
    const out: Hit<T>[] = [];
    for (let i = 0; i < this.size; i += 1) {
      out.push({ item: items[this.slots[i]], relevance: this.scores[i] });
    }
    return out;
  }
}

/**
 * One owner's slabs, one per embedder: while a new embedder's vectors are being made, the old
 * embedder's stay searchable, and a query searches only the slab of the embedder that made it.
 */
class Owner<T extends { id: string }> {
  readonly slabs = new Map<string, Slab<T>>();

  slab(embedder: string, dims: number): Slab<T> {
    let slab = this.slabs.get(embedder);
    if (!slab || slab.dims !== dims) {
      slab = new Slab<T>(dims);
      this.slabs.set(embedder, slab);
    }
    return slab;
  }

  get size(): number {
    let total = 0;
    for (const slab of this.slabs.values()) {
      total += slab.size;
    }
    return total;
  }
}

/**
 * This replica's vector index: every agent's entries and the org facts, in memory, searched exactly
 * (a dot product with every row of the agent's slab for the query's embedder, over one contiguous
 * Float32Array). Rebuilt from the tables at startup and after a restore; kept current by the memory
 * events of every replica.
 */
export class MemoryIndex {
  /** `nativeFrom`: rows from which a slab is searched natively (tests set 0 or Infinity to compare the two). */
  constructor(private readonly nativeFrom: number = NATIVE_SEARCH_FROM) {}

  private readonly owners = new Map<string, Owner<IndexedEntry>>();
  /** Where each entry is: its owner's key and its embedder. */
  private readonly located = new Map<string, { owner: string; embedder: string }>();
  private readonly facts = new Owner<IndexedFact>();
  private readonly factEmbedder = new Map<string, string>();

  get size(): number {
    return this.located.size;
  }

  get factCount(): number {
    return this.factEmbedder.size;
  }

  /** Entries and facts per embedder marker. */
  countsByEmbedder(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const { embedder } of this.located.values()) {
      out[embedder] = (out[embedder] ?? 0) + 1;
    }
    for (const embedder of this.factEmbedder.values()) {
      out[embedder] = (out[embedder] ?? 0) + 1;
    }
    return out;
  }

  /** Shrinks every slab to what it holds (after a rebuild). */
  compact(): void {
    for (const owner of this.owners.values()) {
      owner.slabs.forEach((slab) => slab.compact());
    }
    this.facts.slabs.forEach((slab) => slab.compact());
  }

  /** Takes over another index's contents (a rebuild swaps in what it read). */
  replaceWith(other: MemoryIndex): void {
    this.owners.clear();
    this.located.clear();
    this.facts.slabs.clear();
    this.factEmbedder.clear();
    for (const [key, owner] of other.owners) {
      this.owners.set(key, owner);
    }
    for (const [id, where] of other.located) {
      this.located.set(id, where);
    }
    for (const [marker, slab] of other.facts.slabs) {
      this.facts.slabs.set(marker, slab);
    }
    for (const [id, marker] of other.factEmbedder) {
      this.factEmbedder.set(id, marker);
    }
  }

  /** Adds or replaces an entry with its vector (float32 values, or the row's stored bytes). */
  put(entry: IndexedEntry, vector: Float32Array | Uint8Array): void {
    const previous = this.located.get(entry.id);
    if (previous && (previous.owner !== entry.agentId || previous.embedder !== entry.embedder)) {
      this.remove(entry.id);
    }
    let owner = this.owners.get(entry.agentId);
    if (!owner) {
      owner = new Owner();
      this.owners.set(entry.agentId, owner);
    }
    owner.slab(entry.embedder, dimsOf(vector)).put(entry, vector, entry.level, entry.category, entry.expiresAt);
    this.located.set(entry.id, { owner: entry.agentId, embedder: entry.embedder });
  }

  /** Adds or replaces an entry from its row. */
  putRow(row: MemoryEntryEntity): void {
    this.put(indexedEntry(row), row.embedding);
  }

  remove(id: string): void {
    const where = this.located.get(id);
    if (where === undefined) {
      return;
    }
    this.located.delete(id);
    const owner = this.owners.get(where.owner);
    const slab = owner?.slabs.get(where.embedder);
    slab?.remove(id);
    if (owner && slab && slab.size === 0) {
      owner.slabs.delete(where.embedder);
      if (owner.slabs.size === 0) {
        this.owners.delete(where.owner);
      }
    }
  }

  has(id: string): boolean {
    return this.located.has(id);
  }

  putFact(fact: IndexedFact, vector: Float32Array | Uint8Array): void {
    const previous = this.factEmbedder.get(fact.id);
    if (previous !== undefined && previous !== fact.embedder) {
      this.removeFact(fact.id);
    }
    this.facts.slab(fact.embedder, dimsOf(vector)).put(fact, vector, 'persistent', fact.category, null);
    this.factEmbedder.set(fact.id, fact.embedder);
  }

  putFactRow(row: OrgFactEntity): void {
    this.putFact(indexedFact(row), row.embedding);
  }

  removeFact(id: string): void {
    const embedder = this.factEmbedder.get(id);
    if (embedder === undefined) {
      return;
    }
    this.factEmbedder.delete(id);
    const slab = this.facts.slabs.get(embedder);
    slab?.remove(id);
    if (slab && slab.size === 0) {
      this.facts.slabs.delete(embedder);
    }
  }

  /**
   * The agent's entries that pass the filter and were embedded by the query's embedder, with their
   * relevance, best first, at most `limit`.
   */
  search(
    agentId: string,
    query: Float32Array,
    embedder: string,
    limit: number,
    filter: EntryFilter = {},
  ): Hit<IndexedEntry>[] {
    const slab = this.owners.get(agentId)?.slabs.get(embedder);
    if (!slab) {
      return [];
    }
    const top = new TopSlots(limit);
    slab.search(query, limit, filter, top, this.nativeFrom);
    return top.hits(slab.items);
  }

  searchFacts(query: Float32Array, embedder: string, limit: number): Hit<IndexedFact>[] {
    const slab = this.facts.slabs.get(embedder);
    if (!slab) {
      return [];
    }
    const top = new TopSlots(limit);
    slab.search(query, limit, {}, top, this.nativeFrom);
    return top.hits(slab.items);
  }
}
