import type { ServerResponse } from 'node:http';

/** One limit window as counted for a request: what the rate-limit headers report. */
export interface WindowReport {
  /** The window's name: `default` or `auth`. */
  name: string;
  limit: number;
  windowSeconds: number;
  remaining: number;
  /** Seconds until the quota is available again (the block's end when refused). */
  resetSeconds: number;
}

/**
 * Writes the headers of the IETF ratelimit-headers draft, one list item per window:
 * `RateLimit-Policy: "default";q=6000;w=60` (quota, window in seconds) and
 * `RateLimit: "default";r=5999;t=42` (remaining, seconds to reset), beside the `X-RateLimit-*`
 * trio clients already read (suffixed `-auth` for the authentication window).
 */
export function writeRateLimitHeaders(res: ServerResponse, reports: readonly WindowReport[]): void {
  if (reports.length === 0) {
    return;
  }
  res.setHeader('RateLimit-Policy', reports.map((r) => `"${r.name}";q=${r.limit};w=${r.windowSeconds}`).join(', '));
  res.setHeader('RateLimit', reports.map((r) => `"${r.name}";r=${r.remaining};t=${r.resetSeconds}`).join(', '));
  for (const r of reports) {
    const suffix = r.name === 'default' ? '' : `-${r.name}`;
    res.setHeader(`X-RateLimit-Limit${suffix}`, r.limit);
    res.setHeader(`X-RateLimit-Remaining${suffix}`, r.remaining);
    res.setHeader(`X-RateLimit-Reset${suffix}`, r.resetSeconds);
  }
}
