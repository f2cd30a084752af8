import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';

import { ExpressAdapter } from '@nestjs/platform-express';
import express, { type Express, type Request, type Response } from 'express';

import { JsonBytes } from './envelope';
import { JsonReplyExpressAdapter } from './json-reply.adapter';

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Each case answers twice from a real Express app: once through the adapter's reply and once
 * through Express's own res.status().json(), and the two answers must be the same bytes.
 */
describe('JsonReplyExpressAdapter', () => {
  let server: Server;
  let app: Express;
  let base: string;
  const adapter = new JsonReplyExpressAdapter();
  const expressReply = jest.spyOn(ExpressAdapter.prototype, 'reply');

  type Case = (res: Response, send: (body: unknown, status?: number) => void) => void;
  const cases = new Map<string, Case>();

  beforeAll(async () => {
    app = express();
    app.set('etag', false);
    app.all('/:name/:via', (req: Request, res: Response) => {
      const run = cases.get(String(req.params['name']));
      const send =
        req.params['via'] === 'adapter'
          ? (body: unknown, status?: number) => adapter.reply(res, body, status)
          : (body: unknown, status?: number) => (status === undefined ? res : res.status(status)).json(body);
      run?.(res, send);
    });
    server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  beforeEach(() => expressReply.mockClear());

  async function ask(path: string, method = 'GET'): Promise<Answer> {
    const res = await fetch(`${base}${path}`, { method });
    const headers: Record<string, string> = {};
    res.headers.forEach((value, key) => {
      if (key !== 'date') {
        headers[key] = value;
      }
    });
    return { status: res.status, headers, body: await res.text() };
  }

  async function expectSameAsExpress(name: string, run: Case, method = 'GET'): Promise<Answer> {
    cases.set(name, run);
    const viaExpress = await ask(`/${name}/express`, method);
    const viaAdapter = await ask(`/${name}/adapter`, method);
    expect(viaAdapter).toEqual(viaExpress);
    return viaAdapter;
  }

  it('should send an envelope with a status the same way res.json does', async () => {
    const answer = await expectSameAsExpress('created', (_res, send) =>
      send({ data: { id: 'ü-1', at: new Date(0), list: [1, null] }, error: null, success: true }, 201),
    );
    expect(expressReply).not.toHaveBeenCalled(); // the direct path, not Express's
    expect(answer.status).toBe(201);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(answer.body)).toEqual({
      data: { id: 'ü-1', at: '1970-01-01T00:00:00.000Z', list: [1, null] },
      error: null,
      success: true,
    });
  });

  it('should send rendered JSON bytes as is, and let Express render them as their value otherwise', async () => {
    const text = '{"data":[{"n":1.0e+20,"s":"é"}],"success":true}';
    cases.set('text', (_res, send) => send(new JsonBytes(Buffer.from(text))));

    const direct = await ask('/text/adapter');
    const viaExpress = await ask('/text/adapter', 'HEAD');

    expect(direct.body).toBe(text);
    expect(direct.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(direct.headers['content-length']).toBe(String(Buffer.byteLength(text)));
    expect(expressReply).toHaveBeenCalledTimes(1); // HEAD only
    expect(viaExpress.headers['content-length']).toBe(String(Buffer.byteLength(JSON.stringify(JSON.parse(text)))));
  });

  it('should leave HEAD, a preset content type, a bodiless status and non-plain bodies to Express', async () => {
    await expectSameAsExpress('head', (_res, send) => send({ data: 1 }), 'HEAD');
    await expectSameAsExpress('problem', (res, send) => {
      res.setHeader('Content-Type', 'application/problem+json');
      send({ title: 'Not Found', status: 404 }, 404);
    });
    const bodiless = await expectSameAsExpress('no-content', (_res, send) => send({ data: 1 }, 204));
    expect(bodiless.body).toBe('');
    expect(expressReply).toHaveBeenCalledTimes(3);
    expressReply.mockClear();
    await expectSameAsExpress('array', (_res, send) => send([{ a: 1 }, 'b']));
    expect(expressReply).not.toHaveBeenCalled();
    // An Error is Nest's case (it hides the error's fields), so it goes to the base adapter.
    cases.set('error', (_res, send) => send(new Error('boom'), 500));
    const failed = await ask('/error/adapter');
    expect(expressReply).toHaveBeenCalledTimes(1);
    expect(JSON.parse(failed.body)).toEqual({ statusCode: 500, message: 'Internal Server Error' });
  });

  it('should let Express render when the app changes how JSON is rendered', async () => {
    const pretty = new JsonReplyExpressAdapter();
    cases.set('pretty', (res) => pretty.reply(res, { data: { a: 1 } }));
    app.set('json spaces', 2);
    try {
      const answer = await ask('/pretty/adapter');
      expect(answer.body).toBe(JSON.stringify({ data: { a: 1 } }, null, 2));
      expect(expressReply).toHaveBeenCalledTimes(1);
    } finally {
      app.set('json spaces', undefined);
    }
  });
});
