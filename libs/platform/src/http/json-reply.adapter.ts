import { ExpressAdapter } from '@nestjs/platform-express';
import type { Request, RequestHandler, Response } from 'express';

import { JsonBytes } from './envelope';

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
/** Statuses whose responses carry no body; Express strips the headers for them. */
const BODYLESS_STATUSES = new Set([204, 205, 304]);
/** Express settings that change how res.json renders; with any of them set, Express renders. */
const RENDERING_SETTINGS = ['json escape', 'json replacer', 'json spaces', 'etag fn'] as const;

/**
 * The Express adapter, with the envelope's own case sent directly: a plain object or array body on
 * a response that has no content type, validators or transfer coding of its own yet, to anything
 * but HEAD, with a status that carries a body. That is every JSON response a route returns, and
 * for it Express's res.json/res.send only looks settings up, parses and re-renders the content
 * type twice and checks request freshness (always stale without validators). The bytes sent are
 * the ones res.json would send; every other case goes to Express unchanged.
 */
export class JsonReplyExpressAdapter extends ExpressAdapter {
  private direct: boolean | undefined;

  override reply(response: Response, body: unknown, statusCode?: number): unknown {
    if (statusCode !== undefined && statusCode !== null) {
      response.status(statusCode);
    }
    if (!this.canSendDirectly(response, body)) {
      return super.reply(response, body);
    }
    const json = body instanceof JsonBytes ? body.bytes : JSON.stringify(body);
    response.setHeader('Content-Type', JSON_CONTENT_TYPE);
    response.setHeader('Content-Length', Buffer.byteLength(json));
    response.end(json);
    return response;
  }

  /**
   * Nest answers unknown routes with its exception layer only under the global prefix; anything
   * else would fall through to Express's HTML page. Mounted at the root as well (after every
   * route and the documentation), the same handler gives those paths the JSON error body.
   */
  override setNotFoundHandler(
    handler: RequestHandler,
    prefix?: string,
    excludedRoutes?: Parameters<ExpressAdapter['setNotFoundHandler']>[2],
  ): unknown {
    const result: unknown = super.setNotFoundHandler(handler, prefix, excludedRoutes);
    if (prefix !== undefined && prefix.replace(/^\/+|\/+$/g, '') !== '') {
      this.use(handler);
    }
    return result;
  }

  private canSendDirectly(response: Response, body: unknown): boolean {
    if (body === null || typeof body !== 'object' || !(body instanceof JsonBytes || isPlainJson(body))) {
      return false;
    }
    const req = response.req as Request | undefined;
    return (
      this.rendersPlainly(response) &&
      req?.method !== 'HEAD' &&
      !BODYLESS_STATUSES.has(response.statusCode) &&
      !response.hasHeader('content-type') &&
      !response.hasHeader('transfer-encoding') &&
      !response.hasHeader('etag') &&
      !response.hasHeader('last-modified')
    );
  }

  /** Settings are fixed once the app serves; read them on the first reply. */
  private rendersPlainly(response: Response): boolean {
    this.direct ??= RENDERING_SETTINGS.every((setting) => response.app.get(setting) === undefined);
    return this.direct;
  }
}

/** A plain object or array: what JSON.stringify renders the way res.json does (no Errors, files, buffers). */
function isPlainJson(body: object): boolean {
  if (Array.isArray(body)) {
    return true;
  }
  const proto: unknown = Object.getPrototypeOf(body);
  return proto === Object.prototype || proto === null;
}
