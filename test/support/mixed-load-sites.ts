// The websites of the mixed-load acceptance test and bench, one set per team (so
// a site's hit counts are one team's), and what a crawl of each must store: the
// expected pages are derived from the same definitions the sites serve.
import { readFileSync } from 'node:fs';
import { page, startFixtureSite, type FixtureResource, type FixtureSite } from './fixture-site.ts';
import { solidPng } from './png.ts';

const REPORT_PDF = readFileSync(new URL('../fixtures/pdf/report.pdf', import.meta.url));
/** Read from the PDF's page tree, so a regenerated fixture keeps the credit count right. */
const REPORT_PDF_PAGES = Number(/\/Type \/Pages [^>]*\/Count (\d+)/.exec(REPORT_PDF.toString('latin1'))![1]);

const POSTS = 15;
const DOCS = ['intro', 'setup', 'faq'];
const GALLERIES = 2;
const SCRIPTED_PAGES = 4;
const SLOW_PAGES = 5;
/** Long enough that a slow page outlasts many fast ones, short enough for the suite. */
export const SLOW_PAGE_DELAY_MS = 300;
const ITEMS = 8;
const NOTES = 2;

/** A word only the note pages carry: searches find exactly the notes their job scraped (a set of sites may carry another, see startTeamSites). */
const NOTE_WORD = 'quokka';

/**
 * The n-th of a series of distinct note words: NOTE_WORD and consonants, which no suffix rule of
 * PostgreSQL's English stemmer strips, so two words of the series never share a stem.
 */
export function nthNoteWord(n: number): string {
  const letters = 'bcdfghkmnptvwxz';
  let suffix = '';
  for (let k = n; ; k = Math.floor(k / letters.length) - 1) {
    suffix = letters[k % letters.length] + suffix;
    if (k < letters.length) return `${NOTE_WORD}${suffix}`;
  }
}

const post = (i: number) => `/posts/${i}`;
const PDF_PATH = '/files/report.pdf';

function staticSite(externalUrl: string): Record<string, FixtureResource> {
  const posts = Array.from({ length: POSTS }, (_, i) => post(i + 1));
  const galleries = Array.from({ length: GALLERIES }, (_, i) => `/gallery/${i + 1}`);
  const nav = [...posts, ...DOCS.map((d) => `/docs/${d}`), '/about', ...galleries, PDF_PATH].map((p) => `<a href="${p}">${p}</a>`).join(' ');
  const resources: Record<string, FixtureResource> = {
    '/': page('Harbour blog', `<main><h1>Harbour blog</h1><p>Notes from the harbour, posts and pictures.</p><nav>${nav}</nav></main>`),
    '/about': page(
      'About the harbour',
      `<main><h1>About</h1><p>Written by the harbour master. Our friends live <a href="${externalUrl}/">elsewhere</a>.</p><a href="/">home</a></main>`,
    ),
    [PDF_PATH]: { headers: { 'content-type': 'application/pdf' }, body: REPORT_PDF },
  };
  for (const [i, path] of posts.entries()) {
    resources[path] = page(
      `Post ${i + 1}`,
      `<main><h1>Post ${i + 1}</h1><p>The lighthouse keeper's log, entry ${i + 1}: calm seas and ${i + 1} gulls.</p><a href="/">home</a></main>`,
    );
  }
  for (const d of DOCS) resources[`/docs/${d}`] = page(`Docs: ${d}`, `<main><h1>${d}</h1><p>How the harbour works, part ${d}.</p><a href="/">home</a></main>`);
  // No width or height on the images: the HTTP path reads their sizes from the files.
  for (const [g, path] of galleries.entries()) {
    const images = ['a', 'b'].map((x) => `/img/${g + 1}${x}.png`);
    resources[path] = page(
      `Gallery ${g + 1}`,
      `<main><h1>Gallery ${g + 1}</h1>${images.map((src) => `<img src="${src}" alt="boats ${src}">`).join('')}<a href="/">home</a></main>`,
    );
    for (const [k, src] of images.entries()) resources[src] = { headers: { 'content-type': 'image/png' }, body: solidPng(40 + 10 * g, 30 + 10 * k) };
  }
  return resources;
}

/** Pages whose text only a browser sees: each writes its content and links by script. */
function scriptedSite(): Record<string, FixtureResource> {
  const app = (title: string, html: string) =>
    page(title, `<div id="app"></div><script>document.getElementById('app').innerHTML = ${JSON.stringify(html)};</script>`);
  const links = Array.from({ length: SCRIPTED_PAGES }, (_, i) => `<a href="/app/${i + 1}">view ${i + 1}</a>`).join(' ');
  const resources: Record<string, FixtureResource> = { '/': app('App', `<h1>Rendered home</h1><p>Written by script.</p>${links}`) };
  for (let i = 1; i <= SCRIPTED_PAGES; i++) resources[`/app/${i}`] = app(`View ${i}`, `<h1>Rendered view ${i}</h1><p>Written by script.</p>`);
  return resources;
}

function slowSite(): Record<string, FixtureResource> {
  const resources: Record<string, FixtureResource> = {};
  const links = Array.from({ length: SLOW_PAGES }, (_, i) => `<a href="/slow/${i + 1}">slow ${i + 1}</a>`).join(' ');
  resources['/'] = page('Slow home', `<main><h1>Slow home</h1>${links}</main>`);
  for (let i = 1; i <= SLOW_PAGES; i++) resources[`/slow/${i}`] = page(`Slow ${i}`, `<main><h1>Slow ${i}</h1><p>Took its time.</p></main>`);
  return resources;
}

/** Pages named one by one by batch scrapes, single scrapes, browser sessions and searches. */
function scrapeSite(noteWord: string): Record<string, FixtureResource> {
  const resources: Record<string, FixtureResource> = {};
  for (let i = 1; i <= ITEMS; i++) resources[`/item/${i}`] = page(`Item ${i}`, `<main><h1>Item ${i}</h1><p>Catalogue entry ${i}.</p></main>`);
  for (let i = 1; i <= NOTES; i++) {
    resources[`/note/${i}`] = page(
      `Note ${i}`,
      `<main><h1>Note ${i}</h1><p>A ${noteWord} was seen near the jetty, sighting ${i}.</p><img src="/img/note-${i}.png" alt="${noteWord} ${i}" width="64" height="48"></main>`,
    );
    resources[`/img/note-${i}.png`] = { headers: { 'content-type': 'image/png' }, body: solidPng(64, 48) };
  }
  return resources;
}

export interface CrawlTarget {
  site: FixtureSite;
  /** Paths the crawl must store, each once. */
  paths: string[];
  credits: number;
  /** Whether a fetch count of exactly one per page is part of the contract (not for pages Chromium re-loads after an HTTP look). */
  fetchedOnce: boolean;
  /** Text each page's markdown must contain: proof that scripts ran where they write the content. */
  mustContain?: string;
}

export interface TeamSites {
  static: CrawlTarget;
  scripted: CrawlTarget;
  slow: CrawlTarget;
  /** Items and notes: /item/1..8 and /note/1..2. */
  scrape: FixtureSite;
  /** The word the notes carry, and only they. */
  noteWord: string;
  /** Linked from the static site's about page, on another host: never to be fetched. */
  external: FixtureSite;
  close(): Promise<void>;
}

const htmlPaths = (resources: Record<string, FixtureResource>) => Object.keys(resources).filter((p) => !p.startsWith('/img/'));

/**
 * `noteWord`: what the notes say instead of NOTE_WORD, for a team that searches more than once
 * (its index keeps every note it scraped before, so each search needs a word of its own).
 */
export async function startTeamSites({ noteWord = NOTE_WORD } = {}): Promise<TeamSites> {
  const external = await startFixtureSite({ '/': page('Elsewhere', '<p>Not part of any crawl.</p>') }, { host: 'localhost' });
  const staticResources = staticSite(external.url);
  const [staticSiteServer, scripted, slow, scrape] = await Promise.all([
    startFixtureSite(staticResources),
    startFixtureSite(scriptedSite()),
    startFixtureSite(slowSite(), { delayMs: () => SLOW_PAGE_DELAY_MS }),
    startFixtureSite(scrapeSite(noteWord)),
  ]);
  const staticPaths = htmlPaths(staticResources);
  return {
    static: { site: staticSiteServer, paths: staticPaths, credits: staticPaths.length + REPORT_PDF_PAGES - 1, fetchedOnce: true },
    scripted: { site: scripted, paths: htmlPaths(scriptedSite()), credits: SCRIPTED_PAGES + 1, fetchedOnce: false, mustContain: 'Written by script.' },
    slow: { site: slow, paths: htmlPaths(slowSite()), credits: SLOW_PAGES + 1, fetchedOnce: true },
    scrape,
    noteWord,
    external,
    close: async () => void (await Promise.all([external, staticSiteServer, scripted, slow, scrape].map((s) => s.close()))),
  };
}
