import { ErrorCode, ValidationError } from '../errors';
import {
  DEFAULT_ROUTING_STRATEGY,
  isRoutingStrategy,
  parseRoutingConfig,
  ROUTING_STRATEGIES,
  routingConfigToJson,
  type RoutingConfig,
} from './routing-config';

function validationErrorOf(fn: () => unknown): ValidationError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ValidationError) {
      return error;
    }
    throw error;
  }
  throw new Error('expected a ValidationError');
}

describe('parseRoutingConfig', () => {
  it.each([
    ['undefined', undefined],
    ['null', null],
    ['an empty object', {}],
    ['all keys null', { strategy: null, rules: null, fallback_chain: null }],
  ])('should answer the defaults for %s', (_label, raw) => {
    expect(parseRoutingConfig(raw)).toEqual({ strategy: 'cost_aware', rules: [], fallbackChain: [] });
    expect(DEFAULT_ROUTING_STRATEGY).toBe('cost_aware');
  });

  it.each(ROUTING_STRATEGIES.map((strategy) => [strategy]))('should accept the %s strategy', (strategy) => {
    expect(parseRoutingConfig({ strategy }).strategy).toBe(strategy);
  });

  it('should map the snake_case shape onto the config, trimming names', () => {
    const config = parseRoutingConfig({
      strategy: 'smart',
      rules: [
        { task_type: ' code ', preferred_model: ' gpt-4.1 ', fallback: 'gpt-4o' },
        { role_level: 'senior', preferred_model: 'claude-sonnet', task_type: null, fallback: null },
        { task_type: 'review', role_level: 'lead', preferred_model: 'o3' },
      ],
      fallback_chain: [' llama-3 ', 'mistral'],
    });
    expect(config).toEqual<RoutingConfig>({
      strategy: 'smart',
      rules: [
        { taskType: 'code', roleLevel: null, preferredModel: 'gpt-4.1', fallback: 'gpt-4o' },
        { taskType: null, roleLevel: 'senior', preferredModel: 'claude-sonnet', fallback: null },
        { taskType: 'review', roleLevel: 'lead', preferredModel: 'o3', fallback: null },
      ],
      fallbackChain: ['llama-3', 'mistral'],
    });
  });

  it.each<[string, unknown, string]>([
    ['a string', 'smart', 'routing config: must be a JSON object'],
    ['an array', [], 'routing config: must be a JSON object'],
    ['a number', 42, 'routing config: must be a JSON object'],
    ['an unknown key', { strategy: 'smart', mode: 'x' }, 'routing config: unknown field mode'],
    ['two unknown keys', { a: 1, b: 2 }, 'routing config: unknown fields a, b'],
    ['an unknown strategy', { strategy: 'random' }, 'strategy: must be one of manual, role_based'],
    ['a strategy of the wrong case', { strategy: 'SMART' }, 'strategy: must be one of'],
    ['a numeric strategy', { strategy: 3 }, 'strategy: must be one of'],
    ['rules that are not an array', { rules: {} }, 'rules: must be an array of rules'],
    ['a rule that is not an object', { rules: ['code'] }, 'rules[0]: must be an object'],
    ['a rule that is an array', { rules: [[]] }, 'rules[0]: must be an object'],
    ['a rule without preferred model', { rules: [{ task_type: 'code' }] }, 'rules[0].preferred_model: is required'],
    [
      'a rule with a null preferred model',
      { rules: [{ task_type: 'code', preferred_model: null }] },
      'rules[0].preferred_model: is required',
    ],
    [
      'a rule with a blank preferred model',
      { rules: [{ task_type: 'code', preferred_model: '  ' }] },
      'rules[0].preferred_model: must be a non-empty string of at most 256 characters',
    ],
    [
      'a rule with an over-long preferred model',
      { rules: [{ task_type: 'code', preferred_model: 'x'.repeat(257) }] },
      'rules[0].preferred_model: must be a non-empty string',
    ],
    [
      'a rule with a numeric preferred model',
      { rules: [{ task_type: 'code', preferred_model: 4 }] },
      'rules[0].preferred_model: must be a non-empty string',
    ],
    [
      'a rule matching on nothing',
      { rules: [{ preferred_model: 'gpt-4.1' }] },
      'rules[0]: needs a task_type or a role_level to match on',
    ],
    [
      'a rule with an unknown role level',
      { rules: [{ role_level: 'intern', preferred_model: 'a' }] },
      'rules[0].role_level: must be one of junior, mid',
    ],
    [
      'a rule with an empty task type',
      { rules: [{ task_type: '', preferred_model: 'a' }] },
      'rules[0].task_type: must be a non-empty string',
    ],
    [
      'a rule with a numeric task type',
      { rules: [{ task_type: 7, preferred_model: 'a' }] },
      'rules[0].task_type: must be a non-empty string',
    ],
    [
      'a rule with a blank fallback',
      { rules: [{ task_type: 'code', preferred_model: 'a', fallback: ' ' }] },
      'rules[0].fallback: must be a non-empty string',
    ],
    [
      'a rule with an unknown key',
      { rules: [{ task_type: 'code', preferred_model: 'a', model: 'b' }] },
      'rules[0]: unknown field model (allowed: task_type, role_level, preferred_model, fallback)',
    ],
    [
      'the second rule bad',
      { rules: [{ task_type: 'code', preferred_model: 'a' }, { task_type: 'x' }] },
      'rules[1].preferred_model: is required',
    ],
    ['a fallback chain that is not an array', { fallback_chain: 'gpt-4.1' }, 'fallback_chain: must be an array'],
    [
      'a fallback chain with a non-string',
      { fallback_chain: ['a', 2] },
      'fallback_chain[1]: must be a non-empty string',
    ],
    ['a fallback chain with a blank entry', { fallback_chain: [''] }, 'fallback_chain[0]: must be a non-empty string'],
  ])('should reject %s, naming the field', (_label, raw, message) => {
    const error = validationErrorOf(() => parseRoutingConfig(raw));
    expect(error.code).toBe(ErrorCode.ConfigValidationError);
    expect(error.httpStatus).toBe(400);
    expect(error.message).toContain(message);
  });

  it('should report every problem at once', () => {
    const error = validationErrorOf(() =>
      parseRoutingConfig({ strategy: 'nope', rules: [{ preferred_model: 'a' }], fallback_chain: [1], extra: true }),
    );
    expect(error.message.split('; ')).toEqual([
      expect.stringContaining('unknown field extra'),
      expect.stringContaining('strategy:'),
      expect.stringContaining('rules[0]: needs'),
      expect.stringContaining('fallback_chain[0]:'),
    ]);
  });

  it('should ignore inherited properties', () => {
    const raw = Object.create({ strategy: 'bogus' }) as Record<string, unknown>;
    expect(parseRoutingConfig(raw).strategy).toBe('cost_aware');
  });
});

describe('routingConfigToJson', () => {
  it('should render every key, null for unset rule fields, and round-trip through the parser', () => {
    const json = routingConfigToJson({
      strategy: 'fastest',
      rules: [{ taskType: 'code', preferredModel: 'gpt-4.1' }],
      fallbackChain: ['llama-3'],
    });
    expect(json).toEqual({
      strategy: 'fastest',
      rules: [{ task_type: 'code', role_level: null, preferred_model: 'gpt-4.1', fallback: null }],
      fallback_chain: ['llama-3'],
    });
    expect(routingConfigToJson(parseRoutingConfig(json))).toEqual(json);
  });

  it('should copy the fallback chain rather than share it', () => {
    const config: RoutingConfig = { strategy: 'smart', rules: [], fallbackChain: ['a'] };
    routingConfigToJson(config).fallback_chain.push('b');
    expect(config.fallbackChain).toEqual(['a']);
  });
});

describe('isRoutingStrategy', () => {
  it.each<[unknown, boolean]>([
    ['smart', true],
    ['cheapest', true],
    ['Smart', false],
    ['', false],
    [null, false],
    [1, false],
  ])('should answer %p → %p', (value, expected) => {
    expect(isRoutingStrategy(value)).toBe(expected);
  });
});
