import { ErrorCode } from '../errors';
import { type RoutingRequest } from './routing';
import { type RoutingConfig, type RoutingRule } from './routing-config';
import { QuotaAwareSelector, type RoutableModel } from './routing-selectors';
import { CATALOGUE, cheapest, config, errorOf, model, route } from './routing.fixtures';

describe('routeModel', () => {
  describe('fastest', () => {
    it.each<[string, RoutingRule[], RoutingRequest, readonly RoutableModel[], string, string]>([
      ['the lowest latency', [], {}, CATALOGUE, 'claude-haiku', 'fastest model (300 ms) → claude-haiku'],
      [
        'the lowest latency within budget',
        [],
        { remainingBudget: 2.5 },
        CATALOGUE,
        'claude-haiku',
        'fastest model within budget (300 ms) → claude-haiku',
      ],
      [
        'the next fastest when the fastest is over budget',
        [],
        { remainingBudget: 2 },
        [model('a', 'quick', 5, { latency: 100 }), model('b', 'slower', 2, { latency: 200 })],
        'slower',
        'fastest model within budget (200 ms) → slower',
      ],
      [
        'a task-type rule first',
        [{ taskType: 'code', preferredModel: 'gpt-4.1' }],
        { taskType: 'code' },
        CATALOGUE,
        'gpt-4.1',
        "task-type rule 'code' → gpt-4.1",
      ],
      [
        'the cheaper of equally fast models',
        [],
        {},
        [model('a', 'dear', 5, { latency: 100 }), model('b', 'cheap', 2, { latency: 100 })],
        'cheap',
        'fastest model (100 ms) → cheap',
      ],
      [
        'the cheapest model when no model has latency data',
        [],
        {},
        [model('a', 'dear', 5), model('b', 'cheap', 2, { latency: Number.NaN })],
        'cheap',
        'no latency data: cheapest model → cheap',
      ],
      [
        'the cheapest model within budget when no model has latency data',
        [],
        { remainingBudget: 3 },
        [model('a', 'dear', 5), model('b', 'cheap', 2, { latency: Number.POSITIVE_INFINITY })],
        'cheap',
        'no latency data: cheapest model within budget → cheap',
      ],
    ])('should use %s', (_label, rules, request, models, expectedId, reason) => {
      const decision = route(config('fastest', rules), request, models);
      expect(decision.model.id).toBe(expectedId);
      expect(decision.strategyUsed).toBe('fastest');
      expect(decision.reason).toBe(reason);
    });

    it.each<[string, readonly RoutableModel[]]>([
      // llama-3 fits but has no latency data: only models with latency compete.
      ['no model with latency data fits', CATALOGUE],
      ['no model at all fits', [model('a', 'x', 5)]],
    ])('should fail with BudgetExhausted when %s', (_label, models) => {
      const error = errorOf(() => route(config('fastest'), { remainingBudget: 0.8 }, models));
      expect(error.code).toBe(ErrorCode.BudgetExhausted);
    });
  });

  describe('smart', () => {
    const rules: RoutingRule[] = [
      { taskType: 'code', preferredModel: 'gpt-4.1' },
      { roleLevel: 'senior', preferredModel: 'claude-sonnet' },
    ];

    it.each<[string, RoutingRequest, string[], string, string, string[]]>([
      [
        'the override first',
        { modelOverride: 'fast', taskType: 'code', agentLevel: 'senior' },
        [],
        'claude-haiku',
        'model override → claude-haiku',
        [],
      ],
      [
        'the task-type rule when the override is missing',
        { modelOverride: 'gpt-5', taskType: 'code', agentLevel: 'senior' },
        [],
        'gpt-4.1',
        "task-type rule 'code' → gpt-4.1",
        ['gpt-5'],
      ],
      [
        'the role rule without a task-type match',
        { taskType: 'docs', agentLevel: 'senior' },
        [],
        'claude-sonnet',
        "role rule 'senior' → claude-sonnet",
        [],
      ],
      [
        'the seniority default without a rule match',
        { agentLevel: 'lead' },
        [],
        'gpt-4.1',
        "seniority default for 'lead' (large tier) → gpt-4.1",
        [],
      ],
      ['the cheapest model without an agent level', {}, [], 'llama-3', 'cheapest model → llama-3', []],
      [
        'the cheapest model within budget',
        { remainingBudget: 1 },
        ['gpt-4.1'],
        'llama-3',
        'cheapest model within budget → llama-3',
        [],
      ],
      [
        'the first fallback-chain model found when nothing fits the budget',
        { remainingBudget: 0.1 },
        ['gpt-5', 'flagship', 'claude-haiku'],
        'gpt-4.1',
        'fallback chain → gpt-4.1',
        ['gpt-5'],
      ],
    ])('should use %s', (_label, request, fallbackChain, expectedId, reason, tried) => {
      const decision = route(config('smart', rules, fallbackChain), request);
      expect(decision.model.id).toBe(expectedId);
      expect(decision.strategyUsed).toBe('smart');
      expect(decision.reason).toBe(reason);
      expect(decision.fallbacksTried).toEqual(tried);
    });

    it('should record every missing name in cascade order, once each', () => {
      const missingRules: RoutingRule[] = [
        { taskType: 'code', preferredModel: 'p1', fallback: 'f1' },
        { taskType: 'code', preferredModel: 'p1', fallback: 'f2' },
        { roleLevel: 'mid', preferredModel: 'r1', fallback: 'o1' },
      ];
      const decision = route(config('smart', missingRules, ['c1']), {
        modelOverride: 'o1',
        taskType: 'code',
        agentLevel: 'mid',
      });
      expect(decision.fallbacksTried).toEqual(['o1', 'p1', 'f1', 'f2', 'r1']);
      expect(decision.reason).toBe("seniority default for 'mid' (medium tier) → gpt-4.1-mini");
    });

    it('should try a rule naming both a task type and a level once', () => {
      const decision = route(
        config('smart', [{ taskType: 'code', roleLevel: 'mid', preferredModel: 'gone', fallback: 'also-gone' }]),
        { taskType: 'code', agentLevel: 'mid' },
      );
      expect(decision.fallbacksTried).toEqual(['gone', 'also-gone']);
      expect(decision.model.id).toBe('gpt-4.1-mini');
    });

    it('should fail with BudgetExhausted when nothing fits and the chain resolves to nothing', () => {
      const error = errorOf(() => route(config('smart', [], ['gpt-5', 'o5']), { remainingBudget: 0.1 }));
      expect(error.code).toBe(ErrorCode.BudgetExhausted);
    });
  });

  describe('with models several providers offer', () => {
    const models = [
      model('openai', 'gpt-4o', 5, { alias: '4o', latency: 500 }),
      model('azure', 'gpt-4o', 4, { alias: '4o', latency: 600 }),
      model('anthropic', 'claude', 4.5, { latency: 900 }),
    ];

    it.each<[string, RoutingConfig, RoutingRequest, string]>([
      ['manual override by id', config('manual'), { modelOverride: 'gpt-4o' }, 'openai'],
      ['manual override by alias', config('manual'), { modelOverride: '4o' }, 'openai'],
      ['task-type rule', config('cost_aware', [{ taskType: 'x', preferredModel: '4o' }]), { taskType: 'x' }, 'openai'],
      // The cheapest model is gpt-4o; the selector then picks the variant with quota.
      ['cheapest model', config('cheapest'), {}, 'openai'],
      ['fastest model', config('fastest'), {}, 'openai'],
    ])('should hand every variant to the selector (%s)', (_label, cfg, request, provider) => {
      const select = jest.fn((candidates: RoutableModel[]) =>
        new QuotaAwareSelector((p) => p !== 'azure').select(candidates),
      );
      const decision = route(cfg, request, models, { select });
      expect(decision.model.id).toBe('gpt-4o');
      expect(decision.model.provider).toBe(provider);
      expect(select).toHaveBeenCalledTimes(1);
      expect(select.mock.calls[0][0].map((m) => m.provider).sort()).toEqual(['azure', 'openai']);
    });

    it('should treat an alias shared with another model id as naming both', () => {
      const shared = [model('a', 'x', 3, { alias: 'fast' }), model('b', 'fast', 2)];
      const select = jest.fn((candidates: RoutableModel[]) => cheapest.select(candidates));
      const decision = route(config('manual'), { modelOverride: 'fast' }, shared, { select });
      expect(select.mock.calls[0][0]).toHaveLength(2);
      expect(decision.model.provider).toBe('b');
    });

    it('should not hand over-budget variants to the selector', () => {
      const select = jest.fn((candidates: RoutableModel[]) => cheapest.select(candidates));
      route(config('cost_aware'), { remainingBudget: 4.2 }, models, { select });
      expect(select.mock.calls[0][0].map((m) => m.provider)).toEqual(['azure']);
    });
  });

  it('should not mutate the catalogue', () => {
    const models = [...CATALOGUE];
    route(config('role_based'), { agentLevel: 'mid' }, models);
    route(config('fastest'), {}, models);
    expect(models).toEqual(CATALOGUE);
  });
});
