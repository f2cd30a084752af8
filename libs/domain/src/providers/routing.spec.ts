import { SENIORITY_LEVELS, type SeniorityLevel } from '../company/enums';
import { ErrorCode, NotFoundError, ValidationError } from '../errors';
import { tierForSeniority, type RoutingRequest } from './routing';
import { ROUTING_STRATEGIES, type RoutingRule, type RoutingStrategy } from './routing-config';
import { QuotaAwareSelector } from './routing-selectors';
import { CATALOGUE, config, errorOf, model, route } from './routing.fixtures';

describe('tierForSeniority', () => {
  it.each<[SeniorityLevel, string]>([
    ['junior', 'small'],
    ['mid', 'medium'],
    ['senior', 'medium'],
    ['lead', 'large'],
    ['principal', 'large'],
    ['director', 'large'],
    ['vp', 'large'],
    ['c_suite', 'large'],
  ])('should map %s to the %s tier', (level, tier) => {
    expect(tierForSeniority(level)).toBe(tier);
  });
});

describe('routeModel', () => {
  describe('with an empty catalogue', () => {
    it.each(ROUTING_STRATEGIES.map((strategy) => [strategy]))('should refuse %s routing clearly', (strategy) => {
      const error = errorOf(() => route(config(strategy), { modelOverride: 'gpt-4.1' }, []));
      expect(error).toBeInstanceOf(ValidationError);
      expect(error.code).toBe(ErrorCode.RoutingUnresolved);
      expect(error.message).toBe('cannot route the call: no provider has any model registered');
    });
  });

  describe('manual', () => {
    it.each<[string, string, string]>([
      ['an id', 'gpt-4.1', 'gpt-4.1'],
      ['an alias', 'flagship', 'gpt-4.1'],
      ['a padded alias', '  fast ', 'claude-haiku'],
    ])('should resolve the override by %s', (_label, override, expected) => {
      const decision = route(config('manual'), { modelOverride: override });
      expect(decision).toEqual({
        model: CATALOGUE.find((m) => m.id === expected),
        strategyUsed: 'manual',
        reason: `manual override → ${expected}`,
        fallbacksTried: [],
      });
    });

    it.each<[string, string | null | undefined]>([
      ['absent', undefined],
      ['null', null],
      ['empty', ''],
      ['blank', '   '],
    ])('should fail with RoutingUnresolved when the override is %s', (_label, override) => {
      const rules: RoutingRule[] = [{ taskType: 'code', preferredModel: 'gpt-4.1' }];
      const error = errorOf(() => route(config('manual', rules), { modelOverride: override, taskType: 'code' }));
      expect(error).toBeInstanceOf(ValidationError);
      expect(error.code).toBe(ErrorCode.RoutingUnresolved);
    });

    it('should fail with ModelNotFound when the override names no model', () => {
      const error = errorOf(() => route(config('manual', [], ['gpt-4.1']), { modelOverride: 'gpt-5' }));
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error.code).toBe(ErrorCode.ModelNotFound);
      expect(error.httpStatus).toBe(404);
      expect(error.message).toContain("'gpt-5'");
    });
  });

  describe('role_based', () => {
    it.each<[string, RoutingRule[], RoutingRequest, string, string, string[]]>([
      [
        'a matching role rule',
        [{ roleLevel: 'senior', preferredModel: 'claude-sonnet' }],
        { agentLevel: 'senior' },
        'claude-sonnet',
        "role rule 'senior' → claude-sonnet",
        [],
      ],
      [
        "the rule's fallback when its preferred model is missing",
        [{ roleLevel: 'senior', preferredModel: 'gpt-5', fallback: 'flagship' }],
        { agentLevel: 'senior' },
        'gpt-4.1',
        "role rule 'senior' fallback → gpt-4.1",
        ['gpt-5'],
      ],
      [
        'the next matching rule when a rule has no model in the catalogue',
        [
          { roleLevel: 'lead', preferredModel: 'gpt-5', fallback: 'o5' },
          { roleLevel: 'lead', preferredModel: 'claude-haiku' },
        ],
        { agentLevel: 'lead' },
        'claude-haiku',
        "role rule 'lead' → claude-haiku",
        ['gpt-5', 'o5'],
      ],
      [
        'the seniority default when no rule resolves',
        [{ roleLevel: 'junior', preferredModel: 'gpt-5', fallback: 'o5' }],
        { agentLevel: 'junior' },
        'llama-3',
        "seniority default for 'junior' (small tier) → llama-3",
        ['gpt-5', 'o5'],
      ],
      [
        'the seniority default when only other levels have rules',
        [{ roleLevel: 'junior', preferredModel: 'claude-haiku' }],
        { agentLevel: 'lead' },
        'gpt-4.1',
        "seniority default for 'lead' (large tier) → gpt-4.1",
        [],
      ],
      [
        'a rule naming the task type too, when both match',
        [{ roleLevel: 'mid', taskType: 'Review', preferredModel: 'claude-sonnet' }],
        { agentLevel: 'mid', taskType: 'review' },
        'claude-sonnet',
        "role rule 'mid' → claude-sonnet",
        [],
      ],
      [
        'the default when a rule names another task type',
        [{ roleLevel: 'mid', taskType: 'review', preferredModel: 'claude-sonnet' }],
        { agentLevel: 'mid', taskType: 'code' },
        'gpt-4.1-mini',
        "seniority default for 'mid' (medium tier) → gpt-4.1-mini",
        [],
      ],
      [
        'the default, ignoring task-type rules',
        [{ taskType: 'code', preferredModel: 'gpt-4.1' }],
        { agentLevel: 'mid', taskType: 'code' },
        'gpt-4.1-mini',
        "seniority default for 'mid' (medium tier) → gpt-4.1-mini",
        [],
      ],
      [
        'the medium tier without an agent level',
        [{ roleLevel: 'senior', preferredModel: 'claude-sonnet' }],
        {},
        'gpt-4.1-mini',
        'no agent level: medium-tier default → gpt-4.1-mini',
        [],
      ],
      [
        'rules regardless of budget',
        [{ roleLevel: 'vp', preferredModel: 'gpt-4.1' }],
        { agentLevel: 'vp', remainingBudget: 0.01 },
        'gpt-4.1',
        "role rule 'vp' → gpt-4.1",
        [],
      ],
    ])('should use %s', (_label, rules, request, expectedId, reason, tried) => {
      const decision = route(config('role_based', rules), request);
      expect(decision.model.id).toBe(expectedId);
      expect(decision.strategyUsed).toBe('role_based');
      expect(decision.reason).toBe(reason);
      expect(decision.fallbacksTried).toEqual(tried);
    });

    it.each(
      SENIORITY_LEVELS.map((level): [SeniorityLevel, string] => [
        level,
        { small: 'llama-3', medium: 'gpt-4.1-mini', large: 'gpt-4.1' }[tierForSeniority(level)],
      ]),
    )('should give a %s agent without rules %s', (level, expectedId) => {
      expect(route(config('role_based'), { agentLevel: level }).model.id).toBe(expectedId);
    });

    it('should not let a widely offered model shift the tier positions', () => {
      // Distinct a (1) < b (2) < c (3): medium is b, though c is offered by four providers.
      const models = [
        model('p1', 'a', 1),
        model('p1', 'b', 2),
        model('p1', 'c', 3),
        model('p2', 'c', 3.1),
        model('p3', 'c', 3.2),
        model('p4', 'c', 3.3),
      ];
      expect(route(config('role_based'), { agentLevel: 'mid' }, models).model.id).toBe('b');
      expect(route(config('role_based'), { agentLevel: 'lead' }, models).model).toEqual(model('p1', 'c', 3));
    });

    it('should rank a model offered by several providers once, then let the selector choose', () => {
      // Distinct by id: a (1) < b (2) < c (3); b is the middle one even though three providers offer it.
      const models = [
        model('p1', 'a', 1),
        model('p1', 'b', 2.5),
        model('p2', 'b', 2),
        model('p3', 'b', 2.2),
        model('p1', 'c', 3),
      ];
      const selector = new QuotaAwareSelector((provider) => provider !== 'p2');
      const decision = route(config('role_based'), { agentLevel: 'senior' }, models, selector);
      expect(decision.model).toEqual(model('p3', 'b', 2.2));
    });
  });

  describe.each<RoutingStrategy>(['cost_aware', 'cheapest'])('%s', (strategy) => {
    const codeRule: RoutingRule = { taskType: 'code', preferredModel: 'gpt-4.1', fallback: 'claude-sonnet' };

    it.each<[string, RoutingRule[], RoutingRequest, string, string, string[]]>([
      ['a task-type rule', [codeRule], { taskType: 'code' }, 'gpt-4.1', "task-type rule 'code' → gpt-4.1", []],
      [
        'a task-type rule, case-insensitively',
        [codeRule],
        { taskType: ' CODE ' },
        'gpt-4.1',
        "task-type rule 'code' → gpt-4.1",
        [],
      ],
      [
        'a task-type rule regardless of budget',
        [codeRule],
        { taskType: 'code', remainingBudget: 1 },
        'gpt-4.1',
        "task-type rule 'code' → gpt-4.1",
        [],
      ],
      [
        "the rule's fallback when its preferred model is missing",
        [{ ...codeRule, preferredModel: 'gpt-5' }],
        { taskType: 'code' },
        'claude-sonnet',
        "task-type rule 'code' fallback → claude-sonnet",
        ['gpt-5'],
      ],
      [
        'the cheapest model when the rule resolves to nothing',
        [{ taskType: 'code', preferredModel: 'gpt-5', fallback: 'o5' }],
        { taskType: 'code' },
        'llama-3',
        'cheapest model → llama-3',
        ['gpt-5', 'o5'],
      ],
      [
        'the cheapest model for another task type',
        [codeRule],
        { taskType: 'docs' },
        'llama-3',
        'cheapest model → llama-3',
        [],
      ],
      ['the cheapest model without a task type', [codeRule], {}, 'llama-3', 'cheapest model → llama-3', []],
      [
        'the cheapest model when the rule is for another level',
        [{ ...codeRule, roleLevel: 'lead' }],
        { taskType: 'code', agentLevel: 'junior' },
        'llama-3',
        'cheapest model → llama-3',
        [],
      ],
      [
        'a rule for the same level and task type',
        [{ ...codeRule, roleLevel: 'lead' }],
        { taskType: 'code', agentLevel: 'lead' },
        'gpt-4.1',
        "task-type rule 'code' → gpt-4.1",
        [],
      ],
      [
        'the cheapest model within budget',
        [],
        { remainingBudget: 3 },
        'llama-3',
        'cheapest model within budget → llama-3',
        [],
      ],
      [
        'a model costing exactly the budget',
        [],
        { remainingBudget: 0.5 },
        'llama-3',
        'cheapest model within budget → llama-3',
        [],
      ],
      [
        'the cheapest model, ignoring role rules',
        [{ roleLevel: 'lead', preferredModel: 'gpt-4.1' }],
        { agentLevel: 'lead' },
        'llama-3',
        'cheapest model → llama-3',
        [],
      ],
    ])('should use %s', (_label, rules, request, expectedId, reason, tried) => {
      const decision = route(config(strategy, rules), request);
      expect(decision.model.id).toBe(expectedId);
      expect(decision.strategyUsed).toBe(strategy);
      expect(decision.reason).toBe(reason);
      expect(decision.fallbacksTried).toEqual(tried);
    });

    it.each<[string, number]>([
      ['below the cheapest model', 0.49],
      ['zero', 0],
      ['negative', -1],
    ])('should fail with BudgetExhausted when the budget is %s', (_label, budget) => {
      const error = errorOf(() => route(config(strategy, [], ['llama-3']), { remainingBudget: budget }));
      expect(error.code).toBe(ErrorCode.BudgetExhausted);
      expect(error.category).toBe('budget_exhausted');
      expect(error.message).toContain(`remaining budget of ${budget}`);
    });
  });
});
