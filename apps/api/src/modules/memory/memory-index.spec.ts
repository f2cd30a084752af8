import { normalise } from '@app/domain';

import { type IndexedEntry, MemoryIndex, TopHits } from './memory-index';

function entry(id: string, agentId: string, vector: number[], embedder = 'p/m/3'): IndexedEntry {
  return {
    id,
    agentId,
    category: 'semantic',
    level: 'persistent',
    project: null,
    taskId: null,
    content: id,
    createdAt: new Date(0),
    expiresAt: null,
    embedder,
    vector: normalise(vector),
  };
}

describe(MemoryIndex.name, () => {
  it("should search only the agent's entries of the query's embedder, best first, within the limit", () => {
    const index = new MemoryIndex();
    index.put(entry('near', 'a1', [1, 0.1, 0]));
    index.put(entry('far', 'a1', [0, 1, 0]));
    index.put(entry('other-agent', 'a2', [1, 0, 0]));
    index.put(entry('other-model', 'a1', [1, 0, 0], 'p/old/3'));
    const hits = index.search('a1', normalise([1, 0, 0]), 'p/m/3', 5);
    expect(hits.map((h) => h.item.id)).toEqual(['near', 'far']);
    expect(hits[0].relevance).toBeGreaterThan(0.99);
    expect(index.search('a1', normalise([1, 0, 0]), 'p/m/3', 1)).toHaveLength(1);
  });

  it('should forget removed entries and take over a rebuilt index whole', () => {
    const index = new MemoryIndex();
    index.put(entry('x', 'a1', [1, 0, 0]));
    index.remove('x');
    expect(index.size).toBe(0);
    expect(index.search('a1', normalise([1, 0, 0]), 'p/m/3', 5)).toEqual([]);
    const rebuilt = new MemoryIndex();
    rebuilt.put(entry('y', 'a1', [1, 0, 0]));
    index.put(entry('stale', 'a1', [1, 0, 0]));
    index.replaceWith(rebuilt);
    expect(index.search('a1', normalise([1, 0, 0]), 'p/m/3', 5).map((h) => h.item.id)).toEqual(['y']);
  });

  it('should keep the same best hits as a full sort of every candidate (the reference)', () => {
    let seed = 7;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    for (const limit of [0, 1, 5, 100]) {
      const offered = Array.from({ length: 500 }, (_, i) => ({ id: i, relevance: Math.round(next() * 50) / 50 }));
      const top = new TopHits<number>(limit);
      offered.forEach((o) => top.offer(o.id, o.relevance));
      const reference = [...offered].sort((a, b) => b.relevance - a.relevance).slice(0, limit);
      expect(top.hits.map((h) => [h.item, h.relevance])).toEqual(reference.map((o) => [o.id, o.relevance]));
    }
  });
});
