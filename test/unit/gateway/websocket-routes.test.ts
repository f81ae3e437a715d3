import { createServer, request, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { attachWebSockets, matchPath } from '../../../src/platform/http/websockets.ts';
import type { Feature } from '../../../src/platform/feature.ts';
import type { GatewayDeps } from '../../../src/platform/http/app.ts';
import { createLogger } from '../../../src/platform/log.ts';

describe('matchPath', () => {
  it('captures :name segments and decodes them', () => {
    expect(matchPath('/v2/crawl/:id', '/v2/crawl/abc%20d')).toEqual({ id: 'abc d' });
    expect(matchPath('/v2/browser/:id/cdp', '/v2/browser/x/cdp/')).toEqual({ id: 'x' });
  });
  it('refuses other lengths, other literals and undecodable segments', () => {
    expect(matchPath('/v2/crawl/:id', '/v2/crawl')).toBeUndefined();
    expect(matchPath('/v2/crawl/:id', '/v2/scrape/1')).toBeUndefined();
    expect(matchPath('/v2/crawl/:id', '/v2/crawl/%E0%A4%A')).toBeUndefined();
  });
});

describe('attachWebSockets', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  async function upgrade(path: string): Promise<{ status: number; body: string }> {
    const port = (server!.address() as { port: number }).port;
    return new Promise((resolve, reject) => {
      const req = request({ port, host: '127.0.0.1', path, headers: { Connection: 'Upgrade', Upgrade: 'websocket' } });
      req.on('response', (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });
  }

  async function serve(feature: Feature) {
    server = createServer();
    const deps = { log: createLogger('error') } as unknown as GatewayDeps;
    attachWebSockets(server, deps, [feature]);
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  }

  it('hands a matching upgrade to its route with params and query', async () => {
    let seen: unknown;
    await serve({
      name: 't',
      websockets: () => [
        {
          path: '/v2/thing/:id',
          async handle({ socket, params, query }) {
            seen = { params, token: query.get('token') };
            socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
          },
        },
      ],
    });
    expect((await upgrade('/v2/thing/42?token=t1')).status).toBe(403);
    expect(seen).toEqual({ params: { id: '42' }, token: 't1' });
  });

  it('answers 404 in the envelope for an unknown path and 500 when a route throws', async () => {
    await serve({ name: 't', websockets: () => [{ path: '/v2/boom', handle: async () => Promise.reject(new Error('x')) }] });
    const missing = await upgrade('/v2/nothing');
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body)).toMatchObject({ success: false, code: 'NOT_FOUND' });
    const failed = await upgrade('/v2/boom');
    expect(failed.status).toBe(500);
    expect(JSON.parse(failed.body)).toEqual({ success: false, error: 'An unexpected error occurred.', code: 'INTERNAL_ERROR' });
  });
});
