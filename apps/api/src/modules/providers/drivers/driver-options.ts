import type { FetchLike } from './provider-auth';

/** How a driver instance reaches its provider. */
export interface DriverOptions {
  /** The provider's name, for error messages. */
  provider: string;
  endpoint: string;
  /** Authenticating fetch (see ProviderAuth.wrap). */
  fetch: FetchLike;
  /** SDK-level retries with backoff on retryable failures (429, 5xx, connection); 0 for probes. */
  maxRetries: number;
  /** Default per-call timeout. */
  timeoutMs: number;
  /** Extra headers, e.g. an Azure `api-version`. */
  headers?: Record<string, string>;
}

/** Most models a listing keeps: a bound on what a misbehaving endpoint can make us store. */
export const MAX_LISTED_MODELS = 1000;

export function parseToolArguments(raw: string | null | undefined): Record<string, unknown> {
  if (!raw) {
    return {};
  }
  try {
    const value: unknown = JSON.parse(raw);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : { _unparsed: raw };
  } catch {
    // Left for the tool's argument validation to report back to the model.
    return { _unparsed: raw };
  }
}
