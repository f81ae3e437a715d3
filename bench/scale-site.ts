// bench:scale's website, made page by page as it is asked for (a million pages held
// in memory would weigh more than the service measured beside them).
//
// The big site: `pages` pages in a tree of FAN_OUT children a page (wide: the frontier
// holds hundreds of thousands of URLs at once; deep: ~log8(pages) levels, under
// /s<section>/l<level>/p<i>), each page also linking to the next page and to a page of
// another section far off. robots.txt names a sitemap index whose files list the first
// SITEMAP_SHARE of the pages. Every page is reachable, so a crawl with `limit: pages`
// stores exactly `pages` pages.
//
// The small pieces bench:scale's thousand jobs use, on the same server: /item/<i>
// (titled `Item <i>`, what a single scrape, a batch or a browser session's execute
// loads) and /c<k>/, a crawl of SMALL_CRAWL_PAGES pages of its own per k.
import { createServer, type Server } from 'node:http';
import { benchPageHtml } from './site.ts';

const FAN_OUT = 8;
const SITEMAP_SHARE = 0.1;
/** The sitemap protocol's limit of URLs a file. */
const SITEMAP_FILE_URLS = 50_000;
export const SMALL_CRAWL_PAGES = 10;

export interface ScaleSite {
  url: string;
  /** Requests answered 200. */
  served(): number;
  close(): Promise<void>;
}

const levelOf = (i: number) => {
  let level = 0;
  for (let k = i; k > 0; k = Math.floor((k - 1) / FAN_OUT)) level++;
  return level;
};
/** The root's child a page descends from: its section. */
const sectionOf = (i: number) => {
  let k = i;
  while (k > FAN_OUT) k = Math.floor((k - 1) / FAN_OUT);
  return k;
};

export function bigSitePath(i: number): string {
  return i === 0 ? '/' : `/s${sectionOf(i)}/l${levelOf(i)}/p${i}`;
}

function bigPage(i: number, pages: number): string {
  const children = Array.from({ length: FAN_OUT }, (_, c) => FAN_OUT * i + 1 + c);
  // A multiplier prime to any page count's factors of 2 and 5 sends each page's far link into another section.
  const far = (i * 7919 + 1) % pages;
  const hrefs = [...children, i + 1, far].filter((k) => k > 0 && k < pages).map(bigSitePath);
  return benchPageHtml(i, hrefs, false);
}

function sitemapFiles(pages: number): number {
  return Math.ceil(Math.ceil(pages * SITEMAP_SHARE) / SITEMAP_FILE_URLS);
}

function sitemapXml(base: string, pages: number, file: number | 'index'): string {
  const head = '<?xml version="1.0" encoding="UTF-8"?>';
  if (file === 'index') {
    const entries = Array.from({ length: sitemapFiles(pages) }, (_, f) => `<sitemap><loc>${base}/sitemap-${f}.xml</loc></sitemap>`);
    return `${head}<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entries.join('')}</sitemapindex>`;
  }
  const last = Math.min(Math.ceil(pages * SITEMAP_SHARE), (file + 1) * SITEMAP_FILE_URLS);
  const entries: string[] = [];
  for (let i = file * SITEMAP_FILE_URLS; i < last; i++) entries.push(`<url><loc>${base}${bigSitePath(i)}</loc></url>`);
  return `${head}<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entries.join('')}</urlset>`;
}

function smallPage(path: string): string | undefined {
  const item = /^\/item\/(\d+)$/.exec(path);
  if (item) return `<!doctype html><html><head><title>Item ${item[1]}</title></head><body><h1>Item ${item[1]}</h1><p>An item of the bench.</p></body></html>`;
  const crawl = /^\/c(\d+)\/(?:p(\d+))?$/.exec(path);
  if (!crawl) return undefined;
  const j = Number(crawl[2] ?? 0);
  if (j >= SMALL_CRAWL_PAGES) return undefined;
  const hrefs = [2 * j + 1, 2 * j + 2].filter((k) => k < SMALL_CRAWL_PAGES).map((k) => `/c${crawl[1]}/p${k}`);
  return benchPageHtml(j, hrefs, false);
}

/** The answer to a path, or undefined for a 404. */
function answer(base: string, pages: number, path: string): { type: string; body: string } | undefined {
  if (path === '/robots.txt') return { type: 'text/plain', body: `User-agent: *\nAllow: /\nSitemap: ${base}/sitemap-index.xml\n` };
  if (path === '/sitemap-index.xml') return { type: 'application/xml', body: sitemapXml(base, pages, 'index') };
  const sitemap = /^\/sitemap-(\d+)\.xml$/.exec(path);
  if (sitemap && Number(sitemap[1]) < sitemapFiles(pages)) return { type: 'application/xml', body: sitemapXml(base, pages, Number(sitemap[1])) };
  const big = /^\/s\d+\/l\d+\/p(\d+)$/.exec(path);
  const i = path === '/' ? 0 : big ? Number(big[1]) : -1;
  if (i >= 0 && i < pages && bigSitePath(i) === path) return { type: 'text/html; charset=utf-8', body: bigPage(i, pages) };
  const small = smallPage(path);
  return small === undefined ? undefined : { type: 'text/html; charset=utf-8', body: small };
}

export async function startScaleSite(pages: number): Promise<ScaleSite> {
  let served = 0;
  let base = '';
  const server: Server = createServer((req, res) => {
    const found = answer(base, pages, new URL(req.url ?? '/', 'http://x').pathname);
    if (!found) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    served++;
    res.writeHead(200, { 'content-type': found.type }).end(found.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    url: base,
    served: () => served,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
