import {
  agentRetentionDays,
  type ConsolidationEntry,
  type ConsolidationRules,
  consolidationPeriodMs,
  mergeDuplicates,
  planConsolidation,
  usefulness,
} from './consolidation-rules';

const NOW = new Date('2026-06-01T00:00:00Z');
const DAY = 86_400_000;

function entry(id: string, overrides: Partial<ConsolidationEntry> = {}): ConsolidationEntry {
  const vector = new Float32Array(4);
  vector[id.charCodeAt(id.length - 1) % 4] = 1;
  return {
    id,
    category: 'episodic',
    createdAt: new Date(NOW.getTime() - DAY),
    expiresAt: null,
    embedder: 'mock/embed/4',
    vector,
    ...overrides,
  };
}

const RULES: ConsolidationRules = {
  retentionDays: null,
  categoryRetentionDays: {},
  maxEntries: 10_000,
  duplicateThreshold: 0.95,
};

const unit = (...values: number[]) => {
  const norm = Math.hypot(...values);
  return Float32Array.from(values.map((v) => v / norm));
};

describe('consolidation rules', () => {
  it('should map the interval setting to a period, never to none', () => {
    expect(consolidationPeriodMs('hourly')).toBe(3_600_000);
    expect(consolidationPeriodMs('daily')).toBe(DAY);
    expect(consolidationPeriodMs('weekly')).toBe(7 * DAY);
    expect(consolidationPeriodMs('never')).toBeNull();
  });

  it('should remove expired entries and keep those not yet expired', () => {
    const plan = planConsolidation(
      [
        entry('a', { expiresAt: new Date(NOW.getTime() - 1) }),
        entry('b', { expiresAt: new Date(NOW.getTime() + DAY), vector: unit(0, 1, 0, 0) }),
      ],
      RULES,
      NOW,
    );
    expect(plan).toEqual([{ id: 'a', reason: 'expired' }]);
  });

  it('should apply the retention days, a category rule overriding the general one', () => {
    const old = new Date(NOW.getTime() - 40 * DAY);
    const entries = [
      entry('a', { createdAt: old, vector: unit(1, 0, 0, 0) }),
      entry('b', { createdAt: old, category: 'semantic', vector: unit(0, 1, 0, 0) }),
      entry('c', { createdAt: new Date(NOW.getTime() - 2 * DAY), category: 'working', vector: unit(0, 0, 1, 0) }),
    ];
    const plan = planConsolidation(
      entries,
      { ...RULES, retentionDays: 30, categoryRetentionDays: { semantic: 365, working: 1 } },
      NOW,
    );
    expect(plan).toEqual([
      { id: 'a', reason: 'retention' },
      { id: 'c', reason: 'retention' },
    ]);
    expect(planConsolidation(entries, RULES, NOW)).toEqual([]);
  });

  it('should merge near-duplicates of one category into the newest, leaving other categories and embedders alone', () => {
    const entries = [
      entry('old', { createdAt: new Date(NOW.getTime() - 3 * DAY), vector: unit(1, 0.05, 0, 0) }),
      entry('new', { createdAt: new Date(NOW.getTime() - DAY), vector: unit(1, 0, 0, 0) }),
      entry('other-category', { category: 'semantic', vector: unit(1, 0, 0, 0) }),
      entry('other-embedder', { embedder: 'other/embed/4', vector: unit(1, 0, 0, 0) }),
      entry('different', { vector: unit(0.5, 1, 0, 0) }),
    ];
    expect(planConsolidation(entries, RULES, NOW)).toEqual([{ id: 'old', reason: 'duplicate', keptId: 'new' }]);
    expect(planConsolidation(entries, { ...RULES, duplicateThreshold: 0.999_99 }, NOW)).toEqual([]);
  });

  it('should drop the least useful entries beyond the maximum: low-value categories and the oldest first', () => {
    const entries = [
      entry('fact-old', {
        category: 'semantic',
        createdAt: new Date(NOW.getTime() - 60 * DAY),
        vector: unit(1, 0, 0, 0),
      }),
      entry('scratch', { category: 'working', createdAt: new Date(NOW.getTime() - DAY), vector: unit(0, 1, 0, 0) }),
      entry('episode-old', { createdAt: new Date(NOW.getTime() - 90 * DAY), vector: unit(0, 0, 1, 0) }),
      entry('episode-new', { createdAt: new Date(NOW.getTime() - DAY), vector: unit(0, 0, 0, 1) }),
    ];
    const plan = planConsolidation(entries, { ...RULES, maxEntries: 2 }, NOW);
    expect(plan).toEqual([
      { id: 'episode-old', reason: 'overflow' },
      { id: 'scratch', reason: 'overflow' },
    ]);
    expect(usefulness(entries[0], NOW)).toBeGreaterThan(usefulness(entries[1], NOW));
    expect(planConsolidation(entries, { ...RULES, maxEntries: 4 }, NOW)).toEqual([]);
  });

  it('should count an entry once even when several rules would remove it', () => {
    const plan = planConsolidation(
      [entry('a', { expiresAt: NOW, createdAt: new Date(NOW.getTime() - 400 * DAY) })],
      { ...RULES, retentionDays: 1, maxEntries: 0 },
      NOW,
    );
    expect(plan).toEqual([{ id: 'a', reason: 'expired' }]);
  });

  it("should read an agent's retention days only when it is a whole number of at least one", () => {
    expect(agentRetentionDays({ memory: { retention_days: 14 } })).toBe(14);
    expect(agentRetentionDays({ memory: { retention_days: 0 } })).toBeNull();
    expect(agentRetentionDays({ memory: { retention_days: '14' } })).toBeNull();
    expect(agentRetentionDays({ memory: {} })).toBeNull();
    expect(agentRetentionDays(null)).toBeNull();
  });

  describe('merging near-duplicates', () => {
    it("should keep the newest content, append the others' sentences it lacks, and fill missing metadata", () => {
      const merged = mergeDuplicates(
        {
          id: 'new',
          content: 'The build needs Node 24. Run npm ci first.',
          metadata: { task_id: 't2', outcome: 'completed' },
        },
        [
          {
            id: 'old1',
            content: 'the build needs node 24.  Cache the modules!',
            metadata: { task_id: 't1', task_type: 'dev' },
          },
          { id: 'old2', content: 'Run npm ci first. Cache the modules!', metadata: { source: 'tool' } },
        ],
        2_000,
        NOW,
      );
      expect(merged.content).toBe('The build needs Node 24. Run npm ci first. Cache the modules!');
      expect(merged.metadata).toEqual({
        task_id: 't2',
        outcome: 'completed',
        task_type: 'dev',
        source: 'tool',
        merged_from: 'old1,old2',
        merged_count: 2,
        merged_at: NOW.toISOString(),
      });
    });

    it('should stay within the length limit and add to an earlier merge record', () => {
      const merged = mergeDuplicates(
        { id: 'k', content: 'Short note.', metadata: { merged_from: 'a,b', merged_count: 2, merged_at: 'x' } },
        [{ id: 'c', content: 'A sentence far too long to fit. Tiny.', metadata: { merged_from: 'z' } }],
        20,
        NOW,
      );
      expect(merged.content).toBe('Short note. Tiny.');
      expect(merged.metadata).toEqual({ merged_from: 'a,b,c', merged_count: 3, merged_at: NOW.toISOString() });
    });
  });
});
