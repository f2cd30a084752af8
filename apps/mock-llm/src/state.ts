/** The mutable state of one mock server: served models, the script queue and the request log. */
import type { MockRoute, RecordedRequest, ReplyBody, ScriptedReply } from './types';

export const DEFAULT_MODELS: readonly string[] = ['mock-small', 'mock-medium', 'mock-large'];

/** Model names compare without Ollama's implicit ':latest' tag. */
function canonical(name: string): string {
  return name.endsWith(':latest') ? name.slice(0, -':latest'.length) : name;
}

export class MockState {
  readonly requests: RecordedRequest[] = [];
  private readonly queue: ScriptedReply[] = [];
  private served: string[];

  constructor(private readonly initialModels: readonly string[]) {
    this.served = [...initialModels];
  }

  models(): string[] {
    return [...this.served];
  }

  /** The served name matching `name` (with or without ':latest'), if any. */
  findModel(name: string): string | undefined {
    const wanted = canonical(name);
    return this.served.find((model) => canonical(model) === wanted);
  }

  addModel(name: string): void {
    if (this.findModel(name) === undefined) {
      this.served.push(canonical(name));
    }
  }

  /** Removes a model; false when it was not served. */
  removeModel(name: string): boolean {
    const found = this.findModel(name);
    if (found === undefined) {
      return false;
    }
    this.served = this.served.filter((model) => model !== found);
    return true;
  }

  enqueue(replies: readonly ScriptedReply[]): void {
    this.queue.push(...replies);
  }

  /** Takes the oldest scripted reply for `route`, if any. */
  take(route: MockRoute): ReplyBody | undefined {
    const index = this.queue.findIndex((reply) => (reply.route ?? 'chat') === route);
    if (index < 0) {
      return undefined;
    }
    const [reply] = this.queue.splice(index, 1);
    const { route: _route, delayMs: _delay, ...body } = reply;
    return body;
  }

  /**
   * The oldest scripted reply for `route` when it is a delayed one, taken off the queue for the
   * request that arrived now: that request waits its `delayMs` and is answered with it, whatever
   * other requests arrive meanwhile (they take the replies behind it).
   */
  takeDelayed(route: MockRoute): { delayMs: number; body: ReplyBody } | undefined {
    const index = this.queue.findIndex((entry) => (entry.route ?? 'chat') === route);
    const reply = index < 0 ? undefined : this.queue[index];
    if (!reply || !reply.delayMs || reply.delayMs <= 0) {
      return undefined;
    }
    this.queue.splice(index, 1);
    const { route: _route, delayMs, ...body } = reply;
    return { delayMs, body };
  }

  record(request: RecordedRequest): void {
    this.requests.push(request);
  }

  reset(): void {
    this.queue.length = 0;
    this.requests.length = 0;
    this.served = [...this.initialModels];
  }
}
