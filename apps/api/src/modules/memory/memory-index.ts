import { decodeVector, relevanceOf } from '@app/domain';
import type { MemoryEntryEntity, OrgFactEntity } from '@app/persistence';

/** An entry as the index keeps it: what retrieval filters, ranks and injects, and its vector. */
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
  vector: Float32Array;
}

export interface IndexedFact {
  id: string;
  category: string;
  content: string;
  department: string | null;
  createdAt: Date;
  embedder: string;
  vector: Float32Array;
}

/** A search hit: the item and its relevance to the query (cosine, 0..1). */
export interface Hit<T> {
  item: T;
  relevance: number;
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
    vector: decodeVector(row.embedding),
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
    vector: decodeVector(row.embedding),
  };
}

/**
 * This replica's vector index: every agent's entries and the org facts, in memory, searched exactly
 * (a dot product with every candidate of the agent). Rebuilt from the tables at startup and after a
 * restore; kept current by the memory events of every replica.
 */
export class MemoryIndex {
  private readonly byAgent = new Map<string, Map<string, IndexedEntry>>();
  private readonly agentOf = new Map<string, string>();
  private readonly facts = new Map<string, IndexedFact>();

  get size(): number {
    return this.agentOf.size;
  }

  get factCount(): number {
    return this.facts.size;
  }

  /** Takes over another index's contents (a rebuild swaps in what it read). */
  replaceWith(other: MemoryIndex): void {
    this.byAgent.clear();
    this.agentOf.clear();
    this.facts.clear();
    for (const [agentId, entries] of other.byAgent) {
      this.byAgent.set(agentId, entries);
    }
    for (const [id, agentId] of other.agentOf) {
      this.agentOf.set(id, agentId);
    }
    for (const [id, fact] of other.facts) {
      this.facts.set(id, fact);
    }
  }

  put(entry: IndexedEntry): void {
    let entries = this.byAgent.get(entry.agentId);
    if (!entries) {
      entries = new Map();
      this.byAgent.set(entry.agentId, entries);
    }
    entries.set(entry.id, entry);
    this.agentOf.set(entry.id, entry.agentId);
  }

  remove(id: string): void {
    const agentId = this.agentOf.get(id);
    if (agentId === undefined) {
      return;
    }
    this.agentOf.delete(id);
    const entries = this.byAgent.get(agentId);
    entries?.delete(id);
    if (entries?.size === 0) {
      this.byAgent.delete(agentId);
    }
  }

  has(id: string): boolean {
    return this.agentOf.has(id);
  }

  putFact(fact: IndexedFact): void {
    this.facts.set(fact.id, fact);
  }

  removeFact(id: string): void {
    this.facts.delete(id);
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
    accept: (entry: IndexedEntry) => boolean = () => true,
  ): Hit<IndexedEntry>[] {
    const top = new TopHits<IndexedEntry>(limit);
    for (const entry of this.byAgent.get(agentId)?.values() ?? []) {
      if (entry.embedder === embedder && accept(entry)) {
        top.offer(entry, relevanceOf(query, entry.vector));
      }
    }
    return top.hits;
  }

  searchFacts(query: Float32Array, embedder: string, limit: number): Hit<IndexedFact>[] {
    const top = new TopHits<IndexedFact>(limit);
    for (const fact of this.facts.values()) {
      if (fact.embedder === embedder) {
        top.offer(fact, relevanceOf(query, fact.vector));
      }
    }
    return top.hits;
  }
}

/**
 * The best `limit` hits offered, best first (ties: the earlier offered first), kept while offering:
 * a hit no better than the worst kept one costs a comparison, not a sort of every candidate.
 */
export class TopHits<T> {
  readonly hits: Hit<T>[] = [];

  constructor(private readonly limit: number) {}

  offer(item: T, relevance: number): void {
    const hits = this.hits;
    if (this.limit <= 0 || (hits.length === this.limit && relevance <= hits[hits.length - 1].relevance)) {
      return;
    }
    // First position whose relevance is lower than this one's.
    let lo = 0;
    let hi = hits.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (hits[mid].relevance >= relevance) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    hits.splice(lo, 0, { item, relevance });
    if (hits.length > this.limit) {
      hits.pop();
    }
  }
}
