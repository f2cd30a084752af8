import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { GuardedFetcher } from './guarded-fetch';

/** A loopback server that records headers and redirects `/hop...` paths to `target()`. */
async function server(target: () => string): Promise<{ url: string; seen: IncomingHttpHeaders[]; close(): void }> {
  const seen: IncomingHttpHeaders[] = [];
  const http: Server = createServer((req, res) => {
    seen.push(req.headers);
    if (req.url?.startsWith('/hop')) {
      res.writeHead(302, { location: `${target()}/landed` });
    } else {
      res.writeHead(200, { 'content-type': 'application/json' });
    }
    res.end('{}');
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, seen, close: () => http.close() };
}

describe(GuardedFetcher.name, () => {
  const policy = { blockPrivateIps: false, allowlist: new Set<string>() };
  const headers = {
    authorization: 'Bearer secret-key',
    'x-api-key': 'secret-key',
    'x-custom-token': 'secret-key',
    accept: 'application/json',
    'user-agent': 'synthorg-test',
  };

  it('should keep every header on a redirect within the origin', async () => {
    const a = await server(() => a.url);
    const fetcher = new GuardedFetcher(policy);
    try {
      const res = await fetcher.fetch(`${a.url}/hop`, { headers });
      expect(res.status).toBe(200);
      expect(a.seen).toHaveLength(2);
      expect(a.seen[1]).toMatchObject(headers);
    } finally {
      a.close();
      await fetcher.close();
    }
  });

  it('should drop every header that is not on the short safe list when a redirect changes origin', async () => {
    const b = await server(() => b.url);
    const a = await server(() => b.url);
    const fetcher = new GuardedFetcher(policy);
    try {
      const res = await fetcher.fetch(`${a.url}/hop`, { headers });
      expect(res.status).toBe(200);
      expect(b.seen).toHaveLength(1);
      const landed = b.seen[0];
      expect(landed.authorization).toBeUndefined();
      expect(landed['x-api-key']).toBeUndefined();
      expect(landed['x-custom-token']).toBeUndefined();
      expect(landed).toMatchObject({ accept: 'application/json', 'user-agent': 'synthorg-test' });
    } finally {
      a.close();
      b.close();
      await fetcher.close();
    }
  });
});
