import type { NextFunction, Request, RequestHandler, Response } from 'express';
import helmet, { strictTransportSecurity } from 'helmet';

/** Express setting that carries the configured cookie `Secure` mode to the code that sets cookies. */
export const COOKIE_SECURE_SETTING = 'synthorg cookie secure';

export interface ProtectiveHeadersOptions {
  /** Path prefix of the browsable API documentation, which needs a page-friendly policy. */
  docsPrefix: string;
}

/** JSON answers load nothing and may be framed by nobody. */
const API_POLICY = { 'default-src': ["'none'"], 'frame-ancestors': ["'none'"] };

/** The documentation UI loads its own scripts, styles (one inline block) and data: images. */
const DOCS_POLICY = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'frame-ancestors': ["'none'"],
};

function headersWith(directives: Record<string, string[]>): RequestHandler {
  return helmet({
    contentSecurityPolicy: { useDefaults: false, directives },
    referrerPolicy: { policy: 'no-referrer' },
    xFrameOptions: { action: 'deny' },
    // Sent below only for requests that came over TLS: over plain HTTP a browser ignores it anyway.
    strictTransportSecurity: false,
  });
}

/**
 * Protective headers on every response (helmet): nosniff, a frame-ancestors policy, Referrer-Policy,
 * no X-Powered-By, HSTS when the request came over TLS (req.secure honours the trust-proxy setting),
 * and `Cache-Control: no-store` on the API, whose answers are per caller and may carry tokens.
 */
export function createProtectiveHeaders(options: ProtectiveHeadersOptions): RequestHandler {
  const api = headersWith(API_POLICY);
  const docs = headersWith(DOCS_POLICY);
  const hsts = strictTransportSecurity({ maxAge: 31_536_000, includeSubDomains: true });
  const docsPrefix = options.docsPrefix.replace(/\/+$/, '');
  return (req: Request, res: Response, next: NextFunction): void => {
    const isDocs = req.path === docsPrefix || req.path.startsWith(`${docsPrefix}/`);
    if (!isDocs) {
      res.setHeader('Cache-Control', 'no-store');
    }
    const common = isDocs ? docs : api;
    if (!req.secure) {
      common(req, res, next);
      return;
    }
    common(req, res, (error?: unknown) => (error ? next(error) : hsts(req, res, next)));
  };
}

/** Whether cookies set on this response get `Secure`: forced by configuration, else when over TLS. */
export function wantsSecureCookies(req: Request): boolean {
  const mode = req.app.get(COOKIE_SECURE_SETTING) as 'auto' | boolean | undefined;
  return typeof mode === 'boolean' ? mode : req.secure;
}
