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
   * How long the next request of `route` waits before it is answered: the `delayMs` of the oldest
   * scripted reply for it (used once: the reply itself is taken when the wait is over).
   */
  delayFor(route: MockRoute): number {
    const reply = this.queue.find((entry) => (entry.route ?? 'chat') === route);
    const delay = reply?.delayMs ?? 0;
    if (reply) {
      delete reply.delayMs;
    }
    return delay;
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
