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

/**
 * The web console's page and files: its own scripts only (no inline script), its own style sheets
 * (on the page also the style elements carrying the response's nonce, which the component library
 * writes its theme into); style attributes are allowed because the component library sets CSS custom
 * properties through them. 'self' covers WebSocket connections to the same host and port (CSP 3).
 */
const CONSOLE_POLICY = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src-elem': ["'self'"],
  'style-src-attr': ["'unsafe-inline'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'"],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};

function helmetFor(directives: Record<string, string[]>): RequestHandler {
  return helmet({
    contentSecurityPolicy: { useDefaults: false, directives },
    referrerPolicy: { policy: 'no-referrer' },
    xFrameOptions: { action: 'deny' },
    // Sent below only for requests that came over TLS: over plain HTTP a browser ignores it anyway.
    strictTransportSecurity: false,
  });
}

/** What a helmet middleware does to every response: the headers it sets and the ones it removes. */
interface HeaderSet {
  set: ReadonlyArray<readonly [string, string]>;
  removed: readonly string[];
}

/**
 * Runs a helmet middleware once against a recording response. With static directives (no nonce or
 * per-request function, which these policies never use) helmet writes the same headers on every
 * response, so they are applied from this record instead of through its chain of a dozen middleware
 * functions on each request. A middleware that needs the request, or answers asynchronously, is
 * refused here rather than recorded wrongly.
 */
function recordHeaders(middleware: RequestHandler): HeaderSet {
  const set: Array<readonly [string, string]> = [];
  const removed: string[] = [];
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      set.push([name, Array.isArray(value) ? value.join(', ') : String(value)]);
    },
    removeHeader: (name: string) => removed.push(name),
  };
  const noRequest = new Proxy(
    {},
    {
      get: () => {
        throw new Error('a protective header depends on the request');
      },
    },
  );
  let done = false;
  middleware(noRequest as Request, recorder as unknown as Response, (error?: unknown) => {
    if (error) {
      throw error instanceof Error ? error : new Error('helmet refused to set the protective headers');
    }
    done = true;
  });
  if (!done) {
    throw new Error('the protective headers were not set synchronously');
  }
  return { set, removed };
}

function applyHeaders(res: Response, headers: HeaderSet): void {
  for (const name of headers.removed) {
    res.removeHeader(name);
  }
  for (const [name, value] of headers.set) {
    res.setHeader(name, value);
  }
}

/**
 * Protective headers on every response (helmet's, recorded once): nosniff, a frame-ancestors policy,
 * Referrer-Policy, no X-Powered-By, HSTS when the request came over TLS (req.secure honours the
 * trust-proxy setting), and `Cache-Control: no-store` on the API, whose answers are per caller and
 * may carry tokens.
 */
export function createProtectiveHeaders(options: ProtectiveHeadersOptions): RequestHandler {
  const api = recordHeaders(helmetFor(API_POLICY));
  const docs = recordHeaders(helmetFor(DOCS_POLICY));
  const hsts = recordHeaders(strictTransportSecurity({ maxAge: 31_536_000, includeSubDomains: true }));
  const docsPrefix = options.docsPrefix.replace(/\/+$/, '');
  return (req: Request, res: Response, next: NextFunction): void => {
    const path = req.path;
    const isDocs =
      path.startsWith(docsPrefix) && (path.length === docsPrefix.length || path[docsPrefix.length] === '/');
    if (!isDocs) {
      res.setHeader('Cache-Control', 'no-store');
    }
    applyHeaders(res, isDocs ? docs : api);
    if (req.secure) {
      applyHeaders(res, hsts);
    }
    next();
  };
}

/** Sets the console's headers on a response that serves one of its files or its page. */
export interface ConsoleHeaders {
  /** A file of the console's build (script, style sheet, image). */
  file(res: Response): void;
  /** The page, whose own <style> elements (the component library's) carry `nonce`. */
  page(res: Response, nonce: string): void;
}

/** A policy as helmet writes it: `name value value;name value`. */
function serializePolicy(directives: Record<string, string[]>): string {
  return Object.entries(directives)
    .map(([name, values]) => [name, ...values].join(' '))
    .join(';');
}

/**
 * Turns the headers the protective middleware set for the API into the console's: its policy instead
 * of the API's, and no `no-store` (the caller sets the response's own Cache-Control). The page's
 * policy also admits the style elements that carry this response's nonce. HSTS, set or not by the
 * middleware, stays as it is.
 */
export function createConsoleHeaders(): ConsoleHeaders {
  const headers = recordHeaders(helmetFor(CONSOLE_POLICY));
  const file = (res: Response): void => {
    res.removeHeader('Cache-Control');
    applyHeaders(res, headers);
  };
  return {
    file,
    page: (res: Response, nonce: string): void => {
      file(res);
      const styles = [...CONSOLE_POLICY['style-src-elem'], `'nonce-${nonce}'`];
      res.setHeader('Content-Security-Policy', serializePolicy({ ...CONSOLE_POLICY, 'style-src-elem': styles }));
    },
  };
}

/** Whether cookies set on this response get `Secure`: forced by configuration, else when over TLS. */
export function wantsSecureCookies(req: Request): boolean {
  const mode = req.app.get(COOKIE_SECURE_SETTING) as 'auto' | boolean | undefined;
  return typeof mode === 'boolean' ? mode : req.secure;
}
