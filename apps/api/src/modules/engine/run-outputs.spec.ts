import type { ReactLoopResult, RunOutputScanner, ToolOutputVerdict } from '@app/domain';

import { FINAL_OUTPUT_SCAN_FAILED, RunOutputs } from './run-outputs';

const CTX = { taskId: 'task-1', agentId: 'agent-1', agentName: 'Ada' };

function scanner(name: string, verdict: (output: string) => ToolOutputVerdict | Error): RunOutputScanner {
  return {
    name,
    scan: (output) => {
      const answer = verdict(output);
      return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
    },
  };
}

const redactKey = scanner('redact', (out) => ({ action: 'redact', output: out.replace('KEY', '[REDACTED]') }));
const pass = scanner('pass', () => ({ action: 'pass' }));
const block = scanner('block', () => ({ action: 'block', reason: 'content withheld by security policy' }));
const broken = scanner('broken', () => new Error('scanner down'));

function result(finalContent: string): ReactLoopResult {
  return {
    reason: 'completed',
    turns: 2,
    inputTokens: 10,
    outputTokens: 5,
    finalContent,
    truncated: false,
    detail: null,
    error: null,
    messages: [
      { role: 'user', content: 'do it' },
      { role: 'assistant', content: 'earlier text with KEY' },
      { role: 'assistant', content: finalContent },
    ],
  };
}

describe(RunOutputs.name, () => {
  it.each<[string, RunOutputScanner[], string, string, boolean, string[]]>([
    ['no scanners', [], 'the KEY', 'the KEY', false, []],
    ['a pass', [pass], 'the KEY', 'the KEY', false, []],
    ['a redaction', [pass, redactKey], 'the KEY', 'the [REDACTED]', false, ['redact']],
    [
      'a withholding after a redaction',
      [redactKey, block],
      'the KEY',
      'content withheld by security policy',
      true,
      ['redact', 'block'],
    ],
    [
      'a scanner that throws',
      [redactKey, broken, pass],
      'the KEY',
      FINAL_OUTPUT_SCAN_FAILED,
      true,
      ['redact', 'broken'],
    ],
    ['an empty answer', [broken], '', '', false, []],
  ])('should scan a final answer with %s', async (_label, scanners, input, text, withheld, changedBy) => {
    const sut = new RunOutputs();
    scanners.forEach((s) => sut.register(s));
    await expect(sut.scan(input, CTX)).resolves.toEqual({ text, withheld, changedBy });
  });

  it("should put the scanned answer in the result and the last assistant turn, and scan the earlier turns' texts", async () => {
    const sut = new RunOutputs();
    sut.register(redactKey);
    const scanned = await sut.apply(result('final KEY'), CTX);

    expect(scanned.finalContent).toBe('final [REDACTED]');
    expect(scanned.outputWithheld).toBe(false);
    expect(scanned.messages[0]).toEqual({ role: 'user', content: 'do it' });
    expect(scanned.messages.map((m) => m.content)).toEqual([
      'do it',
      'earlier text with [REDACTED]',
      'final [REDACTED]',
    ]);
  });

  it('should mark a withheld answer and leave an untouched result as it was', async () => {
    const sut = new RunOutputs();
    const off = sut.register(block);
    expect(await sut.apply(result('x'), CTX)).toMatchObject({
      finalContent: 'content withheld by security policy',
      outputWithheld: true,
    });
    off();
    const untouched = result('x');
    expect(await sut.apply(untouched, CTX)).toBe(untouched);
    expect(sut.names()).toEqual([]);
  });
});

describe('RunOutputs on a parked conversation', () => {
  it('should tell the scanner which part it reads and scan an earlier text even when the answer is clean', async () => {
    const parts: string[] = [];
    const sut = new RunOutputs();
    sut.register({
      name: 'spy',
      scan: (output, ctx) => {
        parts.push(`${ctx.part ?? '?'}:${output}`);
        return Promise.resolve(
          output.includes('KEY')
            ? { action: 'redact', output: output.replace('KEY', '[REDACTED]') }
            : { action: 'pass' },
        );
      },
    });
    const parked = await sut.apply(result('clean text'), CTX);

    expect(parts).toEqual(['final_answer:clean text', 'earlier_turn:earlier text with KEY']);
    expect(parked.finalContent).toBe('clean text');
    expect(parked.outputWithheld).toBe(false);
    expect(parked.messages[1]).toEqual({ role: 'assistant', content: 'earlier text with [REDACTED]' });
  });
});
