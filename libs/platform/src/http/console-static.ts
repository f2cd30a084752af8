import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';

import compression from 'compression';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';

import { createConsoleHeaders } from './protective-headers';

export interface ConsoleStaticOptions {
  /** The console's build output: index.html, content-hashed files under assets/, a few others. */
  dir: string;
  /** Path prefixes the server answers itself (the API, the documentation), never the console. */
  reservedPrefixes: readonly string[];
}

/** Content-hashed names change with their content, so a copy never goes stale. */
const ASSET_CACHE = 'public, max-age=31536000, immutable';
/** Unhashed files (favicon, robots.txt) keep their names across releases. */
const FILE_CACHE = 'public, max-age=3600';
/** The page names the current assets and carries a fresh nonce: fetched again on every load. */
const PAGE_CACHE = 'no-cache';
const ASSETS_PREFIX = '/assets';
const INDEX = 'index.html';
/** Where the page takes this response's style nonce (`<meta name="csp-nonce" content="…">`). */
export const CSP_NONCE_PLACEHOLDER = '__CSP_NONCE__';

/** Whether `path` (lower case) is `prefix` or below it. */
function isUnder(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}/`);
}

/**
 * A navigation: GET or HEAD from a client that prefers a page to JSON. Browsers ask for text/html
 * (or anything); an API client asking for JSON or problem+json keeps getting the JSON 404.
 */
function wantsPage(req: Request): boolean {
  return (
    (req.method === 'GET' || req.method === 'HEAD') &&
    req.accepts(['html', 'json', 'application/problem+json']) === 'html'
  );
}

/**
 * Serves the web console from its build output, or null when there is none (no index.html).
 * Files are served as they are (the hashed assets cached for a year, the others for an hour) under
 * the console's Content-Security-Policy; any other page request outside the reserved prefixes gets
 * the page, so the console's own routes load on a reload or from a shared link. An unknown file
 * under /assets, a request that is not a page load and every reserved path go on to the server's
 * routes and its JSON 404.
 */
export function createConsoleStatic(options: ConsoleStaticOptions): RequestHandler | null {
  const dir = resolve(options.dir);
  const indexFile = join(dir, INDEX);
  if (!existsSync(indexFile)) {
    return null;
  }
  const assetsDir = join(dir, ASSETS_PREFIX.slice(1)) + sep;
  const reserved = options.reservedPrefixes.map((prefix) => prefix.replace(/\/+$/, '').toLowerCase());
  const headers = createConsoleHeaders();
  const files = express.static(dir, {
    index: false,
    redirect: false,
    cacheControl: false,
    setHeaders: (res: Response, file: string) => {
      headers.file(res);
      res.setHeader('Cache-Control', file.startsWith(assetsDir) ? ASSET_CACHE : FILE_CACHE);
    },
  });
  // Read on each load, not once: a rebuilt console names new assets without a restart. No validator
  // (ETag, Last-Modified): a revalidated copy would keep its old nonce under the new policy.
  const sendPage = (req: Request, res: Response, next: NextFunction): void => {
    readFile(indexFile, 'utf8')
      .then((html) => {
        const nonce = randomBytes(16).toString('base64');
        const body = Buffer.from(html.replaceAll(CSP_NONCE_PLACEHOLDER, nonce));
        headers.page(res, nonce);
        res.setHeader('Cache-Control', PAGE_CACHE);
        res.setHeader('Content-Type', 'text/html; charset=utf-8');
        res.setHeader('Content-Length', body.length);
        res.end(req.method === 'HEAD' ? undefined : body);
      })
      .catch((error: NodeJS.ErrnoException) => next(error.code === 'ENOENT' ? undefined : error));
  };
  // The console's files and page go out compressed (brotli or gzip, as the browser accepts): its
  // scripts shrink to about a third. The API's answers are not compressed here.
  const compress = compression({ threshold: 1024 });
  return function consoleStatic(req: Request, res: Response, next: NextFunction): void {
    // Express routes match without regard to case, so the reserved prefixes do too.
    const path = req.path.toLowerCase();
    if (reserved.some((prefix) => isUnder(path, prefix))) {
      next();
      return;
    }
    compress(req, res, () => serve(req, res, next, path));
  };

  function serve(req: Request, res: Response, next: NextFunction, path: string): void {
    if (path === `/${INDEX}` && (req.method === 'GET' || req.method === 'HEAD')) {
      sendPage(req, res, next);
      return;
    }
    files(req, res, (error?: unknown) => {
      if (error !== undefined || isUnder(path, ASSETS_PREFIX) || !wantsPage(req)) {
        next(error);
        return;
      }
      sendPage(req, res, next);
    });
  }
}
