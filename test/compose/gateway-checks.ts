// What the compose test asks of the stack, through the gateway as a client
// would: a browser session with node, python and bash executes against the
// fixture site, a search answered by the fake SearXNG, and a crawl whose pages
// are all read back.
import assert from 'node:assert/strict';

export interface Gateway {
  url: string;
  key: string;
}

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

export async function api(g: Gateway, path: string, init: { method?: string; json?: unknown } = {}): Promise<Answer> {
  const res = await fetch(path.startsWith('http') ? path : `${g.url}${path}`, {
    method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
    headers: { authorization: `Bearer ${g.key}`, ...(init.json === undefined ? {} : { 'content-type': 'application/json' }) },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

function ok(answer: Answer, what: string): Record<string, unknown> {
  assert.ok(answer.status < 300 && answer.body.success !== false, `${what}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 500)}`);
  return answer.body;
}

/** A session that loads a fixture page from node, python and bash (agent-browser); answers its id. */
export async function browserSession(g: Gateway, fixtureUrl: string): Promise<string> {
  const session = ok(await api(g, '/v2/browser', { json: { ttl: 600 } }), 'POST /v2/browser');
  const id = String(session.id);
  const execute = async (language: string, code: string) =>
    ok(await api(g, `/v2/browser/${id}/execute`, { json: { language, code, timeout: 120 } }), `execute ${language}`);
  const node = await execute('node', `await page.goto('${fixtureUrl}/p/1');\nawait page.title()`);
  assert.equal(node.result, 'Page 1', `node execute: ${JSON.stringify(node)}`);
  const python = await execute('python', `await page.goto('${fixtureUrl}/p/2')\nawait page.title()`);
  assert.equal(python.result, 'Page 2', `python execute: ${JSON.stringify(python)}`);
  const bash = await execute('bash', 'agent-browser get title');
  assert.match(String(bash.stdout), /Page 2/, `bash execute: ${JSON.stringify(bash)}`);
  return id;
}

/** The fake SearXNG's recorded answer for any query (test/fixtures/searxng/current-release.json). */
export async function searchWeb(g: Gateway): Promise<number> {
  const body = ok(await api(g, '/v2/search', { json: { query: 'rust async', limit: 5 } }), 'POST /v2/search');
  const web = ((body.data as { web?: { url: string }[] }).web ?? []).map((r) => r.url);
  assert.ok(web.includes('https://tokio.rs/tokio/tutorial'), `search: the fake SearXNG's results are missing: ${JSON.stringify(web)}`);
  return web.length;
}

export async function startCrawl(g: Gateway, url: string, limit: number): Promise<string> {
  return String(ok(await api(g, '/v2/crawl', { json: { url, limit, sitemap: 'skip' } }), 'POST /v2/crawl').id);
}

export async function crawlProgress(g: Gateway, id: string): Promise<{ status: string; completed: number; total: number }> {
  const body = ok(await api(g, `/v2/crawl/${id}`), `GET /v2/crawl/${id}`);
  return { status: String(body.status), completed: Number(body.completed), total: Number(body.total) };
}

/** Every page document of a finished crawl, following `next`. */
export async function crawlPages(g: Gateway, id: string): Promise<string[]> {
  const urls: string[] = [];
  let next: string | undefined = `/v2/crawl/${id}`;
  while (next) {
    const body = ok(await api(g, next), `GET ${next}`);
    for (const doc of (body.data as { metadata?: { sourceURL?: string; url?: string } }[]) ?? [])
      urls.push(String(doc.metadata?.sourceURL ?? doc.metadata?.url));
    next = typeof body.next === 'string' && body.next ? body.next : undefined;
  }
  return urls;
}
