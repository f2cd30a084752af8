import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { testBackends } from '@app/testing';

import { expectError, startTestApp, type TestApp } from '../support';

type Headers = Record<string, string | string[] | undefined>;

const page = (nonce: string) =>
  `<!doctype html><html><head><meta name="csp-nonce" content="${nonce}" />` +
  '<script type="module" src="/assets/app-abc123.js"></script>' +
  '<link rel="stylesheet" href="/assets/app-abc123.css"></head><body><div id="root"></div></body></html>';
const PAGE = page('__CSP_NONCE__');
const SCRIPT = 'document.getElementById("root").textContent = "console";\n';
const STYLE = 'body { margin: 0; }\n';
const ICON = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect width="1" height="1"/></svg>';

const CONSOLE_POLICY =
  "default-src 'self';script-src 'self';style-src-elem 'self';style-src-attr 'unsafe-inline';" +
  "img-src 'self' data:;font-src 'self';connect-src 'self';object-src 'none';base-uri 'self';" +
  "form-action 'self';frame-ancestors 'none'";
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Large enough to be worth compressing (over 1 KB), and compressible. */
const BIG_SCRIPT = `export const rows = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => ({ id: i, label: 'row' })))};\n`;

/** A console build output as the bundler writes it: a page and content-hashed assets. */
function makeWebDir(withPage = true): string {
  const dir = mkdtempSync(join(tmpdir(), 'synthorg-web-'));
  mkdirSync(join(dir, 'assets'));
  if (withPage) {
    writeFileSync(join(dir, 'index.html'), PAGE);
  }
  writeFileSync(join(dir, 'assets', 'app-abc123.js'), SCRIPT);
  writeFileSync(join(dir, 'assets', 'app-abc123.css'), STYLE);
  writeFileSync(join(dir, 'favicon.svg'), ICON);
  writeFileSync(join(dir, 'assets', 'big-def456.js'), BIG_SCRIPT);
  return dir;
}

function expectConsoleHeaders(headers: Headers, policy = CONSOLE_POLICY): void {
  expect(headers['content-security-policy']).toBe(policy);
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('no-referrer');
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['x-powered-by']).toBeUndefined();
}

/** The page as served: a fresh nonce in it and in its policy, which admits the style elements carrying it. */
function expectPage(text: string, headers: Headers): string {
  const nonce = /content="([A-Za-z0-9+/=]{24})"/.exec(text)?.[1] ?? '';
  expect(text).toBe(page(nonce));
  expect(headers['content-type']).toMatch(/^text\/html/);
  expect(headers['cache-control']).toBe('no-cache');
  expect(headers.etag).toBeUndefined();
  expectConsoleHeaders(
    headers,
    CONSOLE_POLICY.replace("style-src-elem 'self'", `style-src-elem 'self' 'nonce-${nonce}'`),
  );
  return nonce;
}

function expectApiHeaders(headers: Headers): void {
  expect(headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
  expect(headers['cache-control']).toBe('no-store');
  expect(headers['x-content-type-options']).toBe('nosniff');
}

async function consoleEvents(t: TestApp): Promise<string[]> {
  await t.logging.flush();
  return t.consoleLines().filter((line) => line.includes('api.console.'));
}

describe.each(testBackends())('web console served by the API process on %s', (backend) => {
  let t: TestApp;
  let webDir: string;

  beforeAll(async () => {
    webDir = makeWebDir();
    t = await startTestApp({ backend, env: { SYNTHORG_WEB_DIR: webDir } });
  });

  afterAll(async () => {
    await t.close();
    rmSync(webDir, { recursive: true, force: true });
  });

  it('should log at startup that the console is served, and from where', async () => {
    const events = await consoleEvents(t);
    expect(events).toHaveLength(1);
    expect(events[0]).toContain('api.console.served');
    expect(events[0]).toContain(webDir);
  });

  it('should answer the page at / and at any console route, with a fresh style nonce each time', async () => {
    const nonces = new Set<string>();
    for (const path of ['/', '/tasks/123', '/agents/a-1/history?tab=runs', '/apiary', '/index.html']) {
      const res = await t.http.get(path).set('Accept', 'text/html,application/xhtml+xml,*/*;q=0.8').expect(200);
      nonces.add(expectPage(res.text, res.headers));
    }
    expect(nonces.size).toBe(5);
  });

  it('should answer the page to clients that accept anything, and to HEAD without a body', async () => {
    const any = await t.http.get('/settings').set('Accept', '*/*').expect(200);
    expectPage(any.text, any.headers);
    const head = await t.http.head('/settings').set('Accept', 'text/html').expect(200);
    expect(head.headers['content-type']).toMatch(/^text\/html/);
    expect(head.headers['cache-control']).toBe('no-cache');
  });

  it('should answer the hashed assets with a year-long immutable cache and their content types', async () => {
    const script = await t.http.get('/assets/app-abc123.js').expect(200);
    expect(script.headers['content-type']).toMatch(/^text\/javascript/);
    expect(script.text).toBe(SCRIPT);
    expect(script.headers['cache-control']).toBe(IMMUTABLE);
    expectConsoleHeaders(script.headers);
    const style = await t.http.get('/assets/app-abc123.css').expect(200);
    expect(style.headers['content-type']).toMatch(/^text\/css/);
    expect(style.text).toBe(STYLE);
    expect(style.headers['cache-control']).toBe(IMMUTABLE);
    const again = await t.http
      .get('/assets/app-abc123.js')
      .set('If-None-Match', String(script.headers.etag))
      .expect(304);
    expect(again.headers['cache-control']).toBe(IMMUTABLE);
  });

  it('should send the console compressed to a browser that accepts it, and plain to one that does not', async () => {
    // The client decodes what it is sent: the header says brotli, the text is the file.
    const brotli = await t.http.get('/assets/big-def456.js').set('Accept-Encoding', 'br, gzip').expect(200);
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers['cache-control']).toBe(IMMUTABLE);
    expect(brotli.text).toBe(BIG_SCRIPT);
    const gzip = await t.http.get('/assets/big-def456.js').set('Accept-Encoding', 'gzip').expect(200);
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.text).toBe(BIG_SCRIPT);
    const plain = await t.http.get('/assets/big-def456.js').set('Accept-Encoding', 'identity').expect(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.text).toBe(BIG_SCRIPT);
    // The API's answers are not compressed by the console's handler.
    const api = await t.http.get('/api/v1/health').set('Accept-Encoding', 'br, gzip').expect(200);
    expect(api.headers['content-encoding']).toBeUndefined();
  });

  it('should answer other files of the build with a short cache', async () => {
    const icon = await t.http.get('/favicon.svg').expect(200);
    expect(icon.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(icon.headers['cache-control']).toBe('public, max-age=3600');
    expectConsoleHeaders(icon.headers);
  });

  it('should answer an unknown asset with the JSON 404, never the page', async () => {
    for (const path of ['/assets/missing.js', '/assets/', '/assets']) {
      const res = await t.http.get(path).set('Accept', 'text/html,*/*;q=0.8').expect(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expectError(res.body, 3002, 'not_found');
      expectApiHeaders(res.headers);
    }
  });

  it('should keep the JSON 404 and the API headers under /api, whatever the client accepts', async () => {
    for (const path of ['/api/v1/nope', '/api', '/API/v1/nope']) {
      const res = await t.http.get(path).set('Accept', 'text/html').expect(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expectError(res.body, 3002, 'not_found');
      expectApiHeaders(res.headers);
    }
    const health = await t.http.get('/api/v1/health').set('Accept', 'text/html').expect(200);
    expect(health.body.data.status).toBe('ok');
    expectApiHeaders(health.headers);
  });

  it('should leave the documentation as it is', async () => {
    const spec = await t.http.get('/docs/openapi.json').set('Accept', 'text/html').expect(200);
    expect(spec.headers['content-type']).toMatch(/^application\/json/);
    expect(spec.body.openapi).toBe('3.1.0');
    expect(spec.headers['content-security-policy']).toContain("style-src 'self' 'unsafe-inline'");
    const missing = await t.http.get('/docs/nope').set('Accept', 'text/html').expect(404);
    expectError(missing.body, 3002, 'not_found');
  });

  it('should keep the JSON 404 for clients that ask for JSON and for requests that are not page loads', async () => {
    const json = await t.http.get('/nope').set('Accept', 'application/json').expect(404);
    expect(json.headers['content-type']).toMatch(/^application\/json/);
    expectError(json.body, 3002, 'not_found');
    expectApiHeaders(json.headers);
    const problem = await t.http.get('/nope').set('Accept', 'application/problem+json').expect(404);
    expect(problem.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(problem.text)).toMatchObject({ status: 404, error_code: 3002 });
    const post = await t.http.post('/tasks/123').set('Accept', 'text/html').send({}).expect(404);
    expectError(post.body, 3002, 'not_found');
    expectApiHeaders(post.headers);
  });
});

describe.each(testBackends())('web console turned off or not built on %s', (backend) => {
  let webDir: string;

  beforeAll(() => {
    webDir = makeWebDir(false);
  });

  afterAll(() => {
    rmSync(webDir, { recursive: true, force: true });
  });

  it.each([
    ['turned off with an empty SYNTHORG_WEB_DIR', () => '', 'disabled'],
    ['not built (no index.html)', () => webDir, 'no index.html'],
  ])('should answer / as before when the console is %s', async (_case, dir, reason) => {
    const t = await startTestApp({ backend, env: { SYNTHORG_WEB_DIR: dir() } });
    try {
      for (const path of ['/', '/tasks/123', '/assets/app-abc123.js']) {
        const res = await t.http.get(path).set('Accept', 'text/html').expect(404);
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        expectError(res.body, 3002, 'not_found');
        expectApiHeaders(res.headers);
      }
      const events = await consoleEvents(t);
      expect(events).toHaveLength(1);
      expect(events[0]).toContain('api.console.absent');
      expect(events[0]).toContain(reason);
    } finally {
      await t.close();
    }
  });
});
