// The private-address guard with its default (on), as in production: only
// 127.0.0.1 is allowlisted. The site listens on every interface, so 127.0.0.2
// (loopback too, not allowlisted) would reach it if the guard let it through.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { page, startFixtureSite, type FixtureSite } from '../support/fixture-site.ts';
import { startHarness, waitForCrawl, type Harness } from '../support/harness.ts';

let h: Harness;
let site: FixtureSite;

beforeAll(async () => {
  h = await startHarness({ crawl: { allowPrivateAddresses: false, privateAddressAllowlist: ['127.0.0.1'] } });
  await h.startWorker();
  let port = 0;
  site = await startFixtureSite(
    {
      '/': () => ({ body: page('Home', `<a href="/ok">ok</a> <a href="/redirect">redirect</a> <a href="http://127.0.0.2:${port}/direct">direct</a>`) }),
      '/ok': page('OK', 'fine'),
      '/redirect': () => ({ status: 302, headers: { location: `http://127.0.0.2:${port}/after-redirect` } }),
      // Script-written, so CRAWL_RENDERING=auto renders it in Chromium: a single scrape's page opens in the warm browser.
      '/rendered': () => ({
        body: page(
          'Rendered',
          `<div id="out"></div><img src="http://127.0.0.2:${port}/pixel"><script>fetch('http://127.0.0.2:${port}/secret').catch(() => {}); document.getElementById('out').textContent = 'written by script';</script>`,
        ),
      }),
      '/pixel': page('Pixel', 'must not be fetched'),
      '/secret': page('Secret', 'must not be fetched'),
      '/direct': page('Direct', 'must not be fetched'),
      '/after-redirect': page('After redirect', 'must not be fetched'),
    },
    { listen: '0.0.0.0' },
  );
  port = site.port;
});

afterAll(async () => {
  await site?.close();
  await h?.stop();
});

it('refuses a start URL on a private address with a clear 400', async () => {
  const res = await h.api('/v2/crawl', { method: 'POST', json: { url: `http://127.0.0.2:${site.port}/` } });
  expect(res.status).toBe(400);
  const body = await res.json();
  expect(body.code).toBe('BLOCKED_ADDRESS');
  expect(body.error).toMatch(/127\.0\.0\.2.*loopback address/);
});

it('refuses discovered links and redirect hops to private addresses, checked on the address connected to', async () => {
  const res = await h.api('/v2/crawl', { method: 'POST', json: { url: `${site.url}/`, allowExternalLinks: true, sitemap: 'skip' } });
  const { id } = await res.json();
  const status = await waitForCrawl(h, id);
  expect(status.data.map((d) => new URL(d.metadata.sourceURL).pathname).sort()).toEqual(['/', '/ok']);
  const errors = await (await h.api(`/v2/crawl/${id}/errors`)).json();
  const byUrl = Object.fromEntries(errors.errors.map((e: { url: string; error: string }) => [new URL(e.url).pathname, e.error]));
  expect(byUrl['/direct']).toMatch(/127\.0\.0\.2.*loopback address/);
  expect(byUrl['/redirect']).toMatch(/127\.0\.0\.2.*loopback address/);
  expect(site.hits.get('/direct')).toBeUndefined();
  expect(site.hits.get('/after-redirect')).toBeUndefined();
});

it('keeps a single scrape rendered in the warm browser behind the guard, context after context', async () => {
  for (let i = 0; i < 2; i++) {
    const res = await h.api('/v2/scrape', { method: 'POST', json: { url: `${site.url}/rendered`, formats: ['markdown'], maxAge: 0 } });
    expect(res.status).toBe(200);
    expect((await res.json()).data.markdown).toContain('written by script');
  }
  expect(site.hits.get('/pixel')).toBeUndefined();
  expect(site.hits.get('/secret')).toBeUndefined();
});
