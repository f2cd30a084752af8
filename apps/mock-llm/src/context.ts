/** What every protocol handler receives for one request. */
import type { ServerResponse } from 'node:http';

import type { MockState } from './state';

/** Server-wide settings the handlers read. */
export interface MockSettings {
  apiKey: string | null;
  pullSteps: number;
  pullStepDelayMs: number;
}

export interface RequestContext {
  method: string;
  /** The URL path without its query string. */
  path: string;
  /** Lower-case header names. */
  headers: Record<string, string>;
  /** The body parsed as JSON, or null. */
  body: unknown;
  res: ServerResponse;
  state: MockState;
  settings: MockSettings;
}

/** A protocol's request handler: false when it does not serve the path (the router answers 404). */
export type ProtocolHandler = (ctx: RequestContext) => boolean;

/** Narrows a parsed JSON body to an object. */
export function bodyRecord(body: unknown): Record<string, unknown> {
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}
