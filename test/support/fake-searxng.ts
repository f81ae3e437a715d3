// A stand-in SearXNG for tests: answers GET /search with recorded JSON of the
// shapes real instances send (test/fixtures/searxng/*.json: general, images and
// news results of a current release; an older release's answer with engine names
// only and `pubdate`), 403 as an instance without the JSON format does, and a
// silently empty answer for a time range its engines do not support. Every
// request's parameters are kept.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';

export interface FakeSearxng {
  url: string;
  requests: URLSearchParams[];
  /** A test's own general results for a query, when it returns some; the recorded fixture's otherwise. */
  results?: (q: string) => { url: string; title: string; content: string }[] | undefined;
  close(): Promise<void>;
}

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'searxng');
const fixture = (name: string) => JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), 'utf8')) as { results: Record<string, unknown>[] };

/** On a free port of 127.0.0.1 unless told where to listen (the compose test serves it to containers). */
export async function startFakeSearxng(listen: { host: string; port: number } = { host: '127.0.0.1', port: 0 }): Promise<FakeSearxng> {
  const requests: URLSearchParams[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://searxng');
    const params = url.searchParams;
    requests.push(params);
    const send = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (url.pathname !== '/search') return send(404, {});
    const q = params.get('q') ?? '';
    if (params.get('format') !== 'json' || q.includes('json-disabled'))
      return res.writeHead(403, { 'content-type': 'text/html' }).end('<h1>403 Forbidden</h1>');
    if (q.includes('old-instance')) return send(200, fixture('old-release'));
    if (params.get('time_range') && q.includes('no-time-support'))
      return send(200, { query: q, number_of_results: 0, results: [], answers: [], corrections: [], infoboxes: [], suggestions: [], unresponsive_engines: [] });
    const own = fake.results?.(q);
    if (own)
      return send(200, {
        query: q,
        number_of_results: own.length,
        results: own.map((r) => ({ ...r, engine: 'fake', engines: ['fake'], category: 'general' })),
        answers: [],
        corrections: [],
        infoboxes: [],
        suggestions: [],
        unresponsive_engines: [],
      });
    const categories = (params.get('categories') ?? 'general').split(',');
    const page = Number(params.get('pageno') ?? '1');
    const answer = fixture('current-release') as { results: Record<string, unknown>[] } & Record<string, unknown>;
    const results = page === 1 ? answer.results.filter((r) => categories.includes(String(r.category))) : [];
    send(200, { ...answer, query: q, results });
  });
  await new Promise<void>((resolve) => server.listen(listen.port, listen.host, () => resolve()));
  const fake: FakeSearxng = {
    url: `http://${listen.host}:${(server.address() as { port: number }).port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return fake;
}
