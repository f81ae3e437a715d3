// A local website for crawl tests. Pages are HTML strings by path; every
// request is counted so tests can tell how often a page was fetched.
import { createServer, type Server } from 'node:http';

export interface FixtureSite {
  url: string;
  port: number;
  hits: Map<string, number>;
  close(): Promise<void>;
}

export interface FixtureOptions {
  /** Milliseconds to wait before answering a path. */
  delayMs?: (path: string) => number;
}

export function page(title: string, body: string, head = ''): string {
  return `<!doctype html><html lang="en"><head><title>${title}</title>${head}</head><body>${body}</body></html>`;
}

/** n pages under /p/<i>, each linking to its two children: every page is reachable from /. */
export function treeSite(n: number): Record<string, string> {
  const pages: Record<string, string> = {};
  const path = (i: number) => (i === 0 ? '/' : `/p/${i}`);
  for (let i = 0; i < n; i++) {
    const kids = [2 * i + 1, 2 * i + 2].filter((k) => k < n).map((k) => `<a href="${path(k)}">page ${k}</a>`);
    pages[path(i)] = page(`Page ${i}`, `<main><h1>Page ${i}</h1><p>Content of page ${i}.</p>${kids.join(' ')}</main>`);
  }
  return pages;
}

export async function startFixtureSite(pages: Record<string, string>, opts: FixtureOptions = {}): Promise<FixtureSite> {
  const hits = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const body = pages[path];
    const send = () => {
      if (body === undefined) {
        res.writeHead(404, { 'content-type': 'text/html' }).end(page('Not found', '<h1>Not found</h1>'));
      } else {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
      }
    };
    const delay = opts.delayMs?.(path) ?? 0;
    if (delay > 0) setTimeout(send, delay);
    else send();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
