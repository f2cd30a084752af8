import type { LlmDriver } from '@app/domain';

import type { ProviderRecord } from '../provider-record';
import type { AnthropicDriver } from './anthropic.driver';
import type { DriverOptions } from './driver-options';
import type { OllamaDriver } from './ollama.driver';
import type { OpenAiCompatibleDriver } from './openai-compatible.driver';
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
  // Each protocol's SDK is loaded when its first driver is made, not at startup: together they are a
  // tenth of the server's start time, and most installations speak one protocol.
  /* eslint-disable @typescript-eslint/no-require-imports -- lazy, synchronous load of one driver module */
  switch (record.protocol) {
    case 'anthropic': {
      const { AnthropicDriver: Driver } = require('./anthropic.driver') as { AnthropicDriver: typeof AnthropicDriver };
      return new Driver(options);
    }
    case 'ollama': {
      const { OllamaDriver: Driver } = require('./ollama.driver') as { OllamaDriver: typeof OllamaDriver };
      return new Driver(options, (modelId) => record.models.find((m) => m.id === modelId)?.localParams ?? null);
    }
    case 'openai_compatible': {
      const { OpenAiCompatibleDriver: Driver } = require('./openai-compatible.driver') as {
        OpenAiCompatibleDriver: typeof OpenAiCompatibleDriver;
      };
      return new Driver(options);
    }
  }
  /* eslint-enable @typescript-eslint/no-require-imports */
}
