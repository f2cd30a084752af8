import { type Schemas, unwrap } from '@app/client';

import { api, csrfToken } from '../../app/api';

export type Provider = Schemas['ProviderResponse'];
export type Preset = Schemas['ProviderPresetResponse'];
export type Health = Schemas['ProviderHealthResponse'];
export type Model = Schemas['ProviderModelResponse'];
export type AuthType = Provider['auth_type'];

export const PAGE_SIZE = 20;

export const AUTH_LABELS: Record<AuthType, string> = {
  api_key: 'API key',
  oauth: 'OAuth client credentials',
  custom_header: 'Custom header',
  subscription: 'Subscription token',
  none: 'No authentication',
};

export const HEALTH_COLOR: Record<Health['health_status'], string> = {
  up: 'green',
  degraded: 'yellow',
  down: 'red',
  unknown: 'gray',
};

export const HEALTH_LABEL: Record<Health['health_status'], string> = {
  up: 'Up',
  degraded: 'Degraded',
  down: 'Down',
  unknown: 'Unknown',
};

export function fetchHealth(name: string) {
  return unwrap(api.GET('/api/v1/providers/{name}/health', { params: { path: { name } } }));
}

/** "60 requests/min · 100k tokens/min", or that the provider has no quota. */
export function quotaSummary(quota: Provider['quota']): string {
  const parts: string[] = [];
  const add = (value: number | null | undefined, unit: string, per: string) => {
    if (value !== null && value !== undefined) {
      parts.push(`${value.toLocaleString('en-US')} ${unit}/${per}`);
    }
  };
  add(quota.requests_per_minute, 'requests', 'min');
  add(quota.requests_per_hour, 'requests', 'h');
  add(quota.requests_per_day, 'requests', 'day');
  add(quota.tokens_per_minute, 'tokens', 'min');
  add(quota.tokens_per_hour, 'tokens', 'h');
  add(quota.tokens_per_day, 'tokens', 'day');
  return parts.length > 0 ? parts.join(' · ') : 'No quota';
}

/** The secrets a provider holds, each only as set or not: the values never leave the server. */
export function secretStates(provider: Provider): Array<{ label: string; set: boolean }> {
  switch (provider.auth_type) {
    case 'api_key':
      return [{ label: 'API key', set: provider.has_api_key }];
    case 'oauth':
      return [{ label: 'OAuth client secret', set: provider.has_oauth_credentials }];
    case 'custom_header':
      return [
        {
          label: `Header value${provider.custom_header_name ? ` (${provider.custom_header_name})` : ''}`,
          set: provider.has_custom_header,
        },
      ];
    case 'subscription':
      return [{ label: 'Subscription token', set: provider.has_subscription_token }];
    case 'none':
      return [];
  }
}

export interface PullProgress {
  status: string;
  percent: number | null;
  completed: number | null;
  total: number | null;
  done: boolean;
  error: string | null;
}

/**
 * Pulls a local model and reports each progress event the server streams (server-sent events:
 * `data: {status, progress_percent, …}`, a failure as `event: error`). Resolves with the last one.
 */
export async function pullModel(
  provider: string,
  model: string,
  onProgress: (progress: PullProgress) => void,
  signal?: AbortSignal,
): Promise<PullProgress> {
  const token = csrfToken();
  const response = await globalThis.fetch(
    new Request(`${window.location.origin}/api/v1/providers/${encodeURIComponent(provider)}/models/pull`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: {
        'content-type': 'application/json',
        accept: 'text/event-stream',
        ...(token ? { 'x-csrf-token': token } : {}),
      },
      body: JSON.stringify({ model_name: model }),
      signal,
    }),
  );
  if (!response.ok || !response.body) {
    // A refusal before the stream starts is an ordinary error envelope.
    const error: unknown = await response.json().catch(() => null);
    await unwrap(Promise.resolve({ response, error }));
    throw new Error(`The pull was refused (HTTP ${response.status})`);
  }
  let last: PullProgress = {
    status: 'starting',
    percent: null,
    completed: null,
    total: null,
    done: false,
    error: null,
  };
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (value) {
      buffer += value;
      let end = buffer.indexOf('\n\n');
      while (end >= 0) {
        const event = parseEvent(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
        if (event) {
          last = event;
          onProgress(event);
        }
        end = buffer.indexOf('\n\n');
      }
    }
    if (done) {
      return last;
    }
  }
}

/** One server-sent event of a pull, or null for a comment or keep-alive. */
export function parseEvent(block: string): PullProgress | null {
  let name = 'message';
  const data: string[] = [];
  for (const line of block.split(/\r?\n/)) {
    if (line.startsWith('event:')) {
      name = line.slice(6).trim();
    } else if (line.startsWith('data:')) {
      data.push(line.slice(5).trimStart());
    }
  }
  if (data.length === 0) {
    return null;
  }
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(data.join('\n')) as Record<string, unknown>;
  } catch {
    body = { status: data.join('\n') };
  }
  const number = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : null);
  const error =
    typeof body.error === 'string' && body.error
      ? body.error
      : name === 'error'
        ? typeof body.message === 'string'
          ? body.message
          : 'The pull failed'
        : null;
  return {
    status: typeof body.status === 'string' ? body.status : name,
    percent: number(body.progress_percent),
    completed: number(body.completed_bytes),
    total: number(body.total_bytes),
    done: body.done === true || error !== null,
    error,
  };
}
