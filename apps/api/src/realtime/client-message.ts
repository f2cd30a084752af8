import { WS_LIMITS } from './realtime.constants';

/** Exact filter values: every key must be present in the event payload with an equal value. */
export type FilterValue = string | number | boolean | null;
export type SubscriptionFilters = Readonly<Record<string, FilterValue>>;

export type ClientMessage =
  | { action: 'subscribe'; channels: string[]; filters: SubscriptionFilters | null }
  | { action: 'unsubscribe'; channels: string[] }
  | { action: 'ping' };

export const WsError = {
  InvalidJson: 'Invalid JSON',
  ExpectedObject: 'Expected JSON object',
  ChannelsNotList: 'channels must be a list of strings',
  FiltersNotObject: 'filters must be an object',
  FilterBounds: 'Filter bounds exceeded',
  UnknownAction: 'Unknown action',
  TooLarge: 'Message too large',
} as const;
export type WsError = (typeof WsError)[keyof typeof WsError];

export type ParseResult = { ok: true; message: ClientMessage } | { ok: false; error: WsError };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function fail(error: WsError): ParseResult {
  return { ok: false, error };
}

/** Parses one inbound text frame; `byteLength` is its size on the wire (the limit is in bytes). */
export function parseClientMessage(text: string, byteLength: number): ParseResult {
  if (byteLength > WS_LIMITS.maxMessageBytes) {
    return fail(WsError.TooLarge);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return fail(WsError.InvalidJson);
  }
  if (!isPlainObject(data)) {
    return fail(WsError.ExpectedObject);
  }
  switch (data.action) {
    case 'ping':
      return { ok: true, message: { action: 'ping' } };
    case 'subscribe':
    case 'unsubscribe': {
      const channels = data.channels;
      if (!Array.isArray(channels) || !channels.every((c) => typeof c === 'string')) {
        return fail(WsError.ChannelsNotList);
      }
      if (data.action === 'unsubscribe') {
        return { ok: true, message: { action: 'unsubscribe', channels } };
      }
      const filters = parseFilters(data.filters);
      if (typeof filters === 'string') {
        return fail(filters);
      }
      return { ok: true, message: { action: 'subscribe', channels, filters } };
    }
    default:
      return fail(WsError.UnknownAction);
  }
}

function parseFilters(raw: unknown): SubscriptionFilters | null | WsError {
  if (raw === undefined || raw === null) {
    return null;
  }
  if (!isPlainObject(raw)) {
    return WsError.FiltersNotObject;
  }
  const entries = Object.entries(raw);
  if (entries.length > WS_LIMITS.maxFilterKeys) {
    return WsError.FilterBounds;
  }
  const filters: Record<string, FilterValue> = {};
  for (const [key, value] of entries) {
    const scalar = value === null || ['string', 'number', 'boolean'].includes(typeof value);
    if (
      !scalar ||
      key.length > WS_LIMITS.maxFilterValueLength ||
      (typeof value === 'string' && value.length > WS_LIMITS.maxFilterValueLength)
    ) {
      return WsError.FilterBounds;
    }
    filters[key] = value as FilterValue;
  }
  return entries.length === 0 ? null : filters;
}
