import {
  isCostKey,
  REDACTED_DESCRIPTION,
  redactActivityCosts,
  redactActivityDescription,
  redactCostPayload,
} from './cost-redaction';

describe('cost redaction', () => {
  it.each(['cost', 'cost_usd', 'total_cost_usd', 'estimated_cost', 'costs', 'spent_usd', 'price_per_1k'])(
    'should treat %s as a cost field when it names money',
    (key) => expect(isCostKey(key)).toBe(true),
  );

  it.each(['costume', 'postcode', 'tokens', 'description', 'budget_id', 'pricey'])(
    'should not treat %s as a cost field when it does not name money',
    (key) => expect(isCostKey(key)).toBe(false),
  );

  it('should rewrite an activity description without model and cost when it has the activity shape', () => {
    expect(redactActivityDescription('API call to gpt-4o (1,200+340 tokens, $0.0123)')).toBe(
      'API call (1,200+340 tokens)',
    );
    expect(redactActivityDescription('Task created')).toBeNull();
  });

  it('should null cost fields and rewrite the description when the payload carries cost', () => {
    const payload = {
      agent_id: 'a1',
      description: 'API call to claude-x (10+20 tokens, $0.50)',
      cost_usd: 0.5,
      total_cost_usd: 12.25,
      tokens: 30,
    };
    const result = redactCostPayload(payload);
    expect(result).toEqual({
      redacted: true,
      payload: {
        agent_id: 'a1',
        description: 'API call (10+20 tokens)',
        cost_usd: null,
        total_cost_usd: null,
        tokens: 30,
      },
    });
    expect(payload.cost_usd).toBe(0.5);
  });

  it('should hide any other description when the event carries cost', () => {
    expect(redactCostPayload({ description: 'Reviewed PR #12 for $3', cost: 3 }).payload).toEqual({
      description: REDACTED_DESCRIPTION,
      cost: null,
    });
  });

  it('should redact nested cost records when they sit in objects or arrays', () => {
    const result = redactCostPayload({
      task_id: 't1',
      usage: { cost_usd: 1, input_tokens: 5 },
      items: [{ description: 'API call to m (1+2 tokens, $1)', cost_usd: 1 }, { description: 'note' }],
    });
    expect(result.payload).toEqual({
      task_id: 't1',
      usage: { cost_usd: null, input_tokens: 5 },
      items: [{ description: 'API call (1+2 tokens)', cost_usd: null }, { description: 'note' }],
    });
  });

  it('should return the very same payload when there is no cost to redact', () => {
    const payload = { task_id: 't1', description: 'Task created', cost_usd: null, tags: ['a'] };
    const result = redactCostPayload(payload);
    expect(result.redacted).toBe(false);
    expect(result.payload).toBe(payload);
  });

  it('should strip the cost from feed events when a read-only role reads the activity feed', () => {
    const call = {
      event_type: 'cost_incurred',
      timestamp: 't',
      description: 'API call to m (1+2 tokens, €0.10)',
    } as const;
    const run = {
      event_type: 'task_completed',
      timestamp: 't',
      description: 'Task t1 succeeded (1.0s, €0.10)',
    } as const;
    const hired = { event_type: 'hired', timestamp: 't', description: 'Hired' } as const;
    expect(redactActivityCosts({ ...call, related_ids: {} }).description).toBe('API call (1+2 tokens)');
    expect(redactActivityCosts({ ...run, related_ids: {} }).description).toBe('Task t1 succeeded (1.0s)');
    const other = { ...hired, related_ids: {} };
    expect(redactActivityCosts(other)).toBe(other);
  });
});
