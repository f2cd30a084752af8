import type { ChatMessage } from '../providers/driver';
import { calibratedInputTokens, CALL_OUTPUT_ESTIMATE_TOKENS, estimateCallCost, estimateInputTokens } from './spend';

const PRICES = { costPer1kInput: 1, costPer1kOutput: 2 };
const seed: ChatMessage[] = [
  { role: 'system', content: 'You are an engineer.' },
  { role: 'user', content: 'Write the notes.' },
];

describe('spend estimates', () => {
  it('should estimate the first call from its messages and charge max_tokens (or the default) out', () => {
    const input = estimateInputTokens(seed, []);
    expect(estimateCallCost(PRICES, seed, [], 500)).toBeCloseTo((input * 1 + 500 * 2) / 1000, 9);
    expect(estimateCallCost(PRICES, seed, [], undefined)).toBeCloseTo(
      (input + CALL_OUTPUT_ESTIMATE_TOKENS * 2) / 1000,
      9,
    );
  });

  it('should build a later call on the input and output the provider reported for the previous one', () => {
    const tool: ChatMessage = { role: 'tool', toolCallId: 'c1', name: 'read_file', content: 'x'.repeat(300) };
    const next: ChatMessage[] = [...seed, { role: 'assistant', content: 'Reading.' }, tool];
    const previous = { inputTokens: 40, outputTokens: 12, messages: seed.length };
    expect(calibratedInputTokens(previous, next, [])).toBe(40 + 12 + estimateInputTokens([tool], []));
    // Nothing added since (the same conversation again): the reported input and output alone.
    expect(calibratedInputTokens(previous, [...seed, { role: 'assistant', content: 'Reading.' }], [])).toBe(52);
  });

  it('should fall back to the estimate before the first call or for another conversation', () => {
    expect(calibratedInputTokens(null, seed, [])).toBe(estimateInputTokens(seed, []));
    const longer = { inputTokens: 40, outputTokens: 12, messages: 5 };
    expect(calibratedInputTokens(longer, seed, [])).toBe(estimateInputTokens(seed, []));
  });
});
