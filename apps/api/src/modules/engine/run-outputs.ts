import type { ReactLoopResult, RunOutputContext, RunOutputScanner, ToolOutputVerdict } from '@app/domain';
import { NamedRegistry } from '@app/platform';

/** What a scan left of a final answer: the text to keep, and whether it was withheld. */
export interface ScannedOutput {
  text: string;
  withheld: boolean;
  /** The scanners that changed the answer, in order. */
  changedBy: string[];
}

/** The text a withheld answer is replaced by when the scanner itself failed. */
export const FINAL_OUTPUT_SCAN_FAILED = 'final output withheld: scanner failed';

/**
 * The scanners of a run's final answer. The engine passes every run's last model text through them
 * before it stores the answer (the task result), saves a parked conversation or logs the run, so a
 * redaction or a withholding holds everywhere. Other modules register through the engine's face.
 */
export class RunOutputs extends NamedRegistry<RunOutputScanner> {
  constructor() {
    super('run output scanner', false);
  }

  /** Runs the scanners on a final answer; an empty answer is not scanned. */
  async scan(output: string, ctx: RunOutputContext): Promise<ScannedOutput> {
    let text = output;
    const changedBy: string[] = [];
    if (text.length === 0) {
      return { text, withheld: false, changedBy };
    }
    for (const scanner of this.entries) {
      let verdict: ToolOutputVerdict;
      try {
        verdict = await scanner.scan(text, ctx);
      } catch {
        return { text: FINAL_OUTPUT_SCAN_FAILED, withheld: true, changedBy: [...changedBy, scanner.name] };
      }
      if (verdict.action === 'block') {
        return { text: verdict.reason, withheld: true, changedBy: [...changedBy, scanner.name] };
      }
      if (verdict.action === 'redact') {
        text = verdict.output;
        changedBy.push(scanner.name);
      }
    }
    return { text, withheld: false, changedBy };
  }

  /**
   * The loop's result with its texts scanned: `finalContent` and the conversation's last assistant
   * text carry the scanned answer, and the earlier assistant texts (which a parked run saves) are
   * scanned too. A result nothing changed is returned as it was.
   */
  async apply(result: ReactLoopResult, ctx: RunOutputContext): Promise<ReactLoopResult> {
    const final = await this.scan(result.finalContent, { ...ctx, part: 'final_answer' });
    const lastAssistant = result.messages.findLastIndex((m) => m.role === 'assistant');
    let messages = result.messages;
    for (let i = 0; i < result.messages.length; i += 1) {
      const message = result.messages[i];
      if (message.role !== 'assistant') {
        continue;
      }
      let text: string;
      if (i === lastAssistant && message.content === result.finalContent) {
        text = final.text;
      } else {
        const earlier = await this.scan(message.content, { ...ctx, part: 'earlier_turn' });
        text = earlier.text;
      }
      if (text !== message.content) {
        messages = messages === result.messages ? [...result.messages] : messages;
        messages[i] = { ...message, content: text };
      }
    }
    if (final.changedBy.length === 0 && messages === result.messages) {
      return result;
    }
    return { ...result, finalContent: final.text, messages, outputWithheld: final.withheld };
  }
}
