import type { LlmDriver } from '@app/domain';

import type { ProviderRecord } from '../provider-record';
import { AnthropicDriver } from './anthropic.driver';
import type { DriverOptions } from './driver-options';
import { OllamaDriver } from './ollama.driver';
import { OpenAiCompatibleDriver } from './openai-compatible.driver';
import { type FetchLike, ProviderAuth } from './provider-auth';

export interface DriverSettings {
  /** Transport under the auth wrapper: global fetch, or the discovery guard's. */
  baseFetch?: FetchLike;
  maxRetries: number;
  timeoutMs: number;
  /** Overrides the record's endpoint (probing candidate URLs). */
  endpoint?: string;
}

/** Default limits of calls made on an agent's behalf. */
export const CALL_DEFAULTS = { maxRetries: 2, timeoutMs: 120_000 } as const;

/** A driver speaking the record's protocol, authenticated with its credentials. */
export function createDriver(record: ProviderRecord, settings: DriverSettings): LlmDriver {
  const auth = new ProviderAuth(
    {
      authType: record.authType,
      protocol: record.protocol,
      secrets: record.secrets,
      customHeaderName: record.customHeaderName,
      oauth: record.oauth,
    },
    settings.baseFetch,
  );
  const options: DriverOptions = {
    provider: record.name,
    endpoint: settings.endpoint ?? record.endpoint,
    fetch: auth.wrap(),
    maxRetries: settings.maxRetries,
    timeoutMs: settings.timeoutMs,
  };
  switch (record.protocol) {
    case 'anthropic':
      return new AnthropicDriver(options);
    case 'ollama':
      return new OllamaDriver(options, (modelId) => record.models.find((m) => m.id === modelId)?.localParams ?? null);
    case 'openai_compatible':
      return new OpenAiCompatibleDriver(options);
  }
}
