import type { PersistenceBackend } from '@app/persistence';
import { EventBus, type ReceivedEvent } from '@app/platform';

import { bearer, type MockLlm, setupCeo, startMockLlm, startTestApp, type TestApp, userWithRole } from '../support';

// The address checks stay on here (test apps turn them off for the loopback fake provider).
export const HIGH_LIMITS = {
  SYNTHORG_RATE_LIMIT_AUTH_PER_MINUTE: '1000',
  SYNTHORG_RATE_LIMIT_ANONYMOUS_PER_MINUTE: '10000',
  SYNTHORG_DISCOVERY_BLOCK_PRIVATE_IPS: 'true',
};
export const SECRET = 'sk-live-DO-NOT-LEAK-7f3a9c2e1b';
export const API = '/api/v1/providers';

export type Json = Record<string, unknown>;

/**
 * What the provider specs run against: the mock model server (which checks SECRET as its API key),
 * an app with smart routing, a CEO, an observer and a pair programmer, and every event the app
 * publishes. The fields are set once start() has run (in beforeAll); the helpers are arrow
 * functions, so a spec may take them apart at once.
 */
export class ProvidersScene {
  t!: TestApp;
  mock!: MockLlm;
  ceo!: string;
  observer!: string;
  pair!: string;
  readonly events: ReceivedEvent[] = [];

  constructor(private readonly backend: PersistenceBackend) {}

  async start(): Promise<this> {
    this.mock = await startMockLlm({ apiKey: SECRET, pullStepDelayMs: 1 });
    this.t = await startTestApp({ backend: this.backend, env: { ...HIGH_LIMITS, SYNTHORG_ROUTING_STRATEGY: 'smart' } });
    this.t.app.get(EventBus).subscribe((e) => this.events.push(e));
    this.ceo = await setupCeo(this.t);
    this.observer = await userWithRole(this.t, this.ceo, 'observer');
    this.pair = await userWithRole(this.t, this.ceo, 'pair_programmer');
    return this;
  }

  async close(): Promise<void> {
    await this.t.close();
    await this.mock.close();
  }

  readonly mockHostPort = () => new URL(this.mock.url).host;

  /** Puts the mock's host:port on the discovery allowlist: calls to it (tests, discovery) then go through. */
  readonly allowMockHost = async (): Promise<void> => {
    await this.t.http
      .post(`${API}/discovery-policy/entries`)
      .set(bearer(this.ceo))
      .send({ host_port: this.mockHostPort() })
      .expect(201);
  };

  /** An OpenAI-protocol provider on the mock with three models (one answers fine, two fail). */
  readonly createOpenAi = async (name: string, extra: Json = {}): Promise<Json> => {
    const res = await this.t.http
      .post(API)
      .set(bearer(this.ceo))
      .send({
        name,
        gateway_provider: 'openai',
        base_url: `${this.mock.url}/v1`,
        api_key: SECRET,
        models: [
          { id: 'mock-small', alias: 'small', cost_per_1k_input: 0.5, cost_per_1k_output: 1.5, max_context: 8000 },
          { id: 'mock-error-429', cost_per_1k_input: 0, cost_per_1k_output: 0, max_context: 8000 },
          { id: 'mock-error-500', cost_per_1k_input: 0, cost_per_1k_output: 0, max_context: 8000 },
        ],
        ...extra,
      })
      .expect(201);
    return res.body.data as Json;
  };
}
