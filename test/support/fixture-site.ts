// A local website for crawl tests. Resources are HTML strings or full
// responses by path; every request is counted and its headers kept, and the
// site tracks how many requests it served at once, so tests can check what
// the crawler fetched, how often, and how politely.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export interface FixtureResponse {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Close the connection without answering (a network error for the client). */
  hangUp?: boolean;
  /** Answer only once this settles: a page that keeps loading until the test lets it. */
  until?: Promise<unknown>;
}

export type FixtureResource = string | FixtureResponse | ((req: IncomingMessage) => FixtureResponse);

export interface FixtureSite {
  url: string;
  port: number;
  hits: Map<string, number>;
  /** Request headers of the latest request per path. */
  headers: Map<string, IncomingHttpHeaders>;
  /** Start times (ms) of every request per path. */
  times: Map<string, number[]>;
  /** The most requests ever in flight at once (robots.txt and sitemaps excluded). */
  maxInFlight(): number;
  /** Starts counting maxInFlight again from the requests in flight now. */
  resetMaxInFlight(): void;
  close(): Promise<void>;
}

export interface FixtureOptions {
  /** Milliseconds to wait before answering a path. */
  delayMs?: (path: string) => number;
  /** Host in the site's URL; 127.0.0.1 unless set. */
  host?: string;
  /** Interface to listen on; `host` unless set (0.0.0.0 makes all of 127/8 reach the site). */
  listen?: string;
  /** A free port unless set. */
  port?: number;
}

export function page(title: string, body: string, head = ''): string {
  return `<!doctype html><html lang="en"><head><title>${title}</title>${head}</head><body>${body}</body></html>`;
}

/**
 * n pages under /p/<i>, each linking to its two children: every page is reachable from /.
 * `scripted`: a script writes each page's content and links, so the page needs a browser
 * under CRAWL_RENDERING=auto as well.
 */
export function treeSite(n: number, { scripted = false } = {}): Record<string, string> {
  const pages: Record<string, string> = {};
  const path = (i: number) => (i === 0 ? '/' : `/p/${i}`);
  for (let i = 0; i < n; i++) {
    const kids = [2 * i + 1, 2 * i + 2].filter((k) => k < n).map((k) => `<a href="${path(k)}">page ${k}</a>`);
    const content = `<h1>Page ${i}</h1><p>Content of page ${i}.</p>${kids.join(' ')}`;
    pages[path(i)] = scripted
      ? page(`Page ${i}`, `<main id="app"></main><script>document.getElementById('app').innerHTML = ${JSON.stringify(content)};</script>`)
      : page(`Page ${i}`, `<main>${content}</main>`);
  }
  return pages;
}

const NOT_FOUND: FixtureResponse = { status: 404, body: page('Not found', '<h1>Not found</h1>') };

function respond(res: ServerResponse, r: FixtureResponse): void {
  if (r.hangUp) {
    res.socket?.destroy();
    return;
  }
  const isHtml = typeof r.body === 'string' && /^\s*</.test(r.body) && !/^\s*<\?xml/.test(r.body);
  res.writeHead(r.status ?? 200, { 'content-type': isHtml ? 'text/html; charset=utf-8' : 'text/plain; charset=utf-8', ...r.headers }).end(r.body ?? '');
}

export async function startFixtureSite(resources: Record<string, FixtureResource>, opts: FixtureOptions = {}): Promise<FixtureSite> {
  const hits = new Map<string, number>();
  const headers = new Map<string, IncomingHttpHeaders>();
  const times = new Map<string, number[]>();
  let inFlight = 0;
  let maxInFlight = 0;
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    headers.set(path, req.headers);
    times.set(path, [...(times.get(path) ?? []), Date.now()]);
    const counted = path !== '/robots.txt' && !path.includes('sitemap');
    if (counted) maxInFlight = Math.max(maxInFlight, ++inFlight);
    res.once('close', () => counted && inFlight--);
    const resource = resources[path];
    const send = () => {
      const r =
        resource === undefined ? NOT_FOUND : typeof resource === 'string' ? { body: resource } : typeof resource === 'function' ? resource(req) : resource;
      if (r.until)
        void r.until.then(
          () => respond(res, r),
          () => respond(res, r),
        );
      else respond(res, r);
    };
    const delay = opts.delayMs?.(path) ?? 0;
    if (delay > 0) setTimeout(send, delay);
    else send();
  });
  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, opts.listen ?? host, resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://${host}:${port}`,
    port,
    hits,
    headers,
    times,
    maxInFlight: () => maxInFlight,
    resetMaxInFlight: () => void (maxInFlight = inFlight),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
