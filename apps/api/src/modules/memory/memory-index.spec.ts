import { encodeVector, entryInScope, normalise, relevanceOf } from '@app/domain';

import { type IndexedEntry, MemoryIndex } from './memory-index';

function entry(id: string, agentId: string, overrides: Partial<IndexedEntry> = {}): IndexedEntry {
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
    embedder: 'p/m/3',
    ...overrides,
  };
}

/** A deterministic generator, so the comparison is repeatable. */
function random(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
}

describe(MemoryIndex.name, () => {
  it("should search only the agent's entries of the query's embedder, best first, within the limit", () => {
    const index = new MemoryIndex();
    index.put(entry('near', 'a1'), normalise([1, 0.1, 0]));
    index.put(entry('far', 'a1'), normalise([0, 1, 0]));
    index.put(entry('other-agent', 'a2'), normalise([1, 0, 0]));
    index.put(entry('other-model', 'a1', { embedder: 'p/old/3' }), normalise([1, 0, 0]));
    const hits = index.search('a1', normalise([1, 0, 0]), 'p/m/3', 5);
    expect(hits.map((h) => h.item.id)).toEqual(['near', 'far']);
    expect(hits[0].relevance).toBeGreaterThan(0.99);
    expect(index.search('a1', normalise([1, 0, 0]), 'p/m/3', 1)).toHaveLength(1);
    expect(index.search('a1', normalise([1, 0, 0]), 'p/old/3', 5).map((h) => h.item.id)).toEqual(['other-model']);
    expect(index.countsByEmbedder()).toEqual({ 'p/m/3': 3, 'p/old/3': 1 });
  });

  it('should read a stored row whose vector is little-endian float32 bytes', () => {
    const index = new MemoryIndex();
    index.putRow({
      ...entry('row', 'a1'),
      metadata: {},
      archiveId: null,
      updatedAt: null,
      embedding: Buffer.from(encodeVector(normalise([0, 0, 1]))),
    });
    expect(index.search('a1', normalise([0, 0, 1]), 'p/m/3', 5)[0].relevance).toBeCloseTo(1, 5);
  });

  it('should forget removed entries, move an entry that changed embedder, and take over a rebuilt index whole', () => {
    const index = new MemoryIndex();
    index.put(entry('x', 'a1'), normalise([1, 0, 0]));
    index.put(entry('y', 'a1'), normalise([0, 1, 0]));
    index.remove('x');
    expect(index.size).toBe(1);
    expect(index.search('a1', normalise([0, 1, 0]), 'p/m/3', 5).map((h) => h.item.id)).toEqual(['y']);
    index.put(entry('y', 'a1', { embedder: 'p/new/2' }), normalise([0, 1]));
    expect(index.search('a1', normalise([0, 1, 0]), 'p/m/3', 5)).toEqual([]);
    expect(index.search('a1', normalise([0, 1]), 'p/new/2', 5).map((h) => h.item.id)).toEqual(['y']);
    const rebuilt = new MemoryIndex();
    rebuilt.put(entry('z', 'a1'), normalise([1, 0, 0]));
    index.replaceWith(rebuilt);
    expect(index.size).toBe(1);
    expect(index.search('a1', normalise([1, 0, 0]), 'p/m/3', 5).map((h) => h.item.id)).toEqual(['z']);
  });

  it.each([
    ['the JavaScript scan', Number.POSITIVE_INFINITY],
    ["usearch's native exact search", 0],
  ])('should answer with %s what a full sort of every candidate passing the filter answers', (_name, nativeFrom) => {
    const next = random(7);
    const dims = 16;
    const index = new MemoryIndex(nativeFrom);
    const all: { entry: IndexedEntry; vector: Float32Array }[] = [];
    const levels = ['persistent', 'project', 'session'];
    const categories = ['semantic', 'episodic', 'procedural'];
    for (let i = 0; i < 2_000; i += 1) {
      const item = entry(`e${i}`, `a${i % 3}`, {
        level: levels[i % 3],
        category: categories[Math.floor(next() * 3)],
        project: next() < 0.5 ? 'p1' : 'p2',
        taskId: next() < 0.5 ? 't1' : 't2',
        expiresAt: next() < 0.1 ? new Date(1_000) : null,
        embedder: 'p/m/16',
      });
      const vector = normalise(Array.from({ length: dims }, () => next() - 0.5));
      index.put(item, vector);
      all.push({ entry: item, vector });
    }
    // Some removed, so rows moved into freed slots take part too.
    for (let i = 0; i < 2_000; i += 7) {
      index.remove(`e${i}`);
    }
    const live = all.filter((_, i) => i % 7 !== 0);
    for (let q = 0; q < 20; q += 1) {
      const query = normalise(Array.from({ length: dims }, () => next() - 0.5));
      const filter = {
        category: q % 2 === 0 ? 'semantic' : undefined,
        scope: { taskId: 't1', project: 'p1' },
        now: 2_000,
      };
      for (const limit of [1, 10, 100]) {
        const reference = live
          .filter(({ entry: e }) => e.agentId === 'a1')
          .filter(({ entry: e }) => !filter.category || e.category === filter.category)
          .filter(({ entry: e }) => !(e.expiresAt && e.expiresAt.getTime() <= filter.now))
          .filter(({ entry: e }) => entryInScope(e, filter.scope))
          .map(({ entry: e, vector }) => ({ id: e.id, relevance: relevanceOf(query, vector) }))
          .sort((a, b) => b.relevance - a.relevance)
          .slice(0, limit);
        const hits = index.search('a1', query, 'p/m/16', limit, filter);
        // Opposite vectors all clamp to relevance 0: among those, which ones fill the limit is open.
        const positive = (list: { id: string; relevance: number }[]) => list.filter((h) => h.relevance > 1e-6);
        expect(positive(hits.map((h) => ({ id: h.item.id, relevance: h.relevance }))).map((h) => h.id)).toEqual(
          positive(reference).map((r) => r.id),
        );
        expect(hits).toHaveLength(reference.length);
        hits.forEach((h, i) => expect(h.relevance).toBeCloseTo(reference[i].relevance, 5));
      }
    }
  });

  it('should find with the native search the same best entries as the JavaScript scan on clustered vectors', () => {
    const next = random(45);
    const dims = 384;
    const gaussian = () => Math.sqrt(-2 * Math.log(next() || 1e-12)) * Math.cos(2 * Math.PI * next());
    const topics = Array.from({ length: 20 }, () => normalise(Array.from({ length: dims }, gaussian)));
    const near = (topic: Float32Array) => {
      const noise = normalise(Array.from({ length: dims }, gaussian));
      return normalise(Array.from(topic, (v, i) => v + 0.75 * noise[i]));
    };
    const native = new MemoryIndex(0);
    const reference = new MemoryIndex(Number.POSITIVE_INFINITY);
    for (let i = 0; i < 3_000; i += 1) {
      const item = entry(`e${i}`, 'a1', { embedder: 'p/m/384', level: i % 5 === 0 ? 'session' : 'persistent' });
      const vector = near(topics[i % topics.length]);
      native.put(item, vector);
      reference.put(item, vector);
    }
    native.compact();
    let found = 0;
    for (let q = 0; q < 40; q += 1) {
      const query = near(topics[q % topics.length]);
      const filter = { scope: { taskId: 'other', project: 'p' }, now: 0 };
      const expected = reference.search('a1', query, 'p/m/384', 20, filter);
      const hits = native.search('a1', query, 'p/m/384', 20, filter);
      expect(hits.map((h) => h.item.id)).toEqual(expected.map((h) => h.item.id));
      hits.forEach((h, i) => expect(h.relevance).toBeCloseTo(expected[i].relevance, 5));
      found += hits.length;
    }
    expect(found).toBe(40 * 20);
  });
});
