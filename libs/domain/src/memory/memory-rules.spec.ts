import {
  combinedScore,
  decodeVector,
  encodeVector,
  entryInScope,
  memoryLevelOf,
  normalise,
  packWithinBudget,
  rankMemories,
  relevanceOf,
} from './memory-rules';

describe('memory rules', () => {
  const now = new Date('2026-01-02T00:00:00Z');
  const hoursAgo = (h: number) => new Date(now.getTime() - h * 3_600_000);

  it('should score 0.7·relevance + 0.3·exp(−0.01·age_hours), own entries +0.1 capped at 1', () => {
    expect(combinedScore({ relevance: 0.5, createdAt: now, personal: false }, now)).toBeCloseTo(0.65, 10);
    expect(combinedScore({ relevance: 0.5, createdAt: hoursAgo(100), personal: false }, now)).toBeCloseTo(
      0.35 + 0.3 * Math.exp(-1),
      10,
    );
    expect(combinedScore({ relevance: 0.95, createdAt: now, personal: true }, now)).toBeCloseTo(1, 10);
    expect(combinedScore({ relevance: null, createdAt: now, personal: false }, now)).toBeCloseTo(0.65, 10);
  });

  it('should rank best first, drop scores under 0.3 and keep at most the limit', () => {
    const old = hoursAgo(10_000);
    const ranked = rankMemories(
      [
        { id: 'low', relevance: 0.1, createdAt: old, personal: false },
        { id: 'mid', relevance: 0.6, createdAt: now, personal: false },
        { id: 'top', relevance: 0.9, createdAt: now, personal: true },
      ],
      now,
    );
    expect(ranked.map((r) => r.id)).toEqual(['top', 'mid']);
    const many = Array.from({ length: 30 }, (_, i) => ({ id: i, relevance: 0.9, createdAt: now, personal: false }));
    expect(rankMemories(many, now)).toHaveLength(20);
  });

  it('should pack greedily within the token budget, skipping a line that does not fit', () => {
    const lines = ['a'.repeat(40), 'b'.repeat(400), 'c'.repeat(40)];
    expect(packWithinBudget(lines, (l) => l, 30)).toEqual([lines[0], lines[2]]);
  });

  it('should scope session entries to their task and project entries to their project', () => {
    const scope = { taskId: 't1', project: 'p1' };
    expect(entryInScope({ level: 'session', taskId: 't1', project: 'p1' }, scope)).toBe(true);
    expect(entryInScope({ level: 'session', taskId: 't2', project: 'p1' }, scope)).toBe(false);
    expect(entryInScope({ level: 'project', taskId: 't2', project: 'p1' }, scope)).toBe(true);
    expect(entryInScope({ level: 'project', taskId: 't1', project: 'p2' }, scope)).toBe(false);
    expect(entryInScope({ level: 'persistent', taskId: null, project: 'p9' }, scope)).toBe(true);
  });

  it('should read the level from memory.type, else the default', () => {
    expect(memoryLevelOf({ memory: { type: 'none' } }, 'persistent')).toBe('none');
    expect(memoryLevelOf({ memory: { type: 'bogus' } }, 'project')).toBe('project');
    expect(memoryLevelOf({}, 'session')).toBe('session');
  });

  it('should round-trip vectors as float32 bytes and compare unit vectors by cosine', () => {
    const v = normalise([3, 4, 0]);
    expect(Array.from(decodeVector(encodeVector(v)))).toEqual(Array.from(v));
    expect(relevanceOf(v, v)).toBeCloseTo(1, 6);
    expect(relevanceOf(v, normalise([-3, -4, 0]))).toBe(0);
    expect(relevanceOf(v, normalise([1, 2]))).toBe(0);
  });
});
