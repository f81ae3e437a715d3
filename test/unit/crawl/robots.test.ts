import { describe, expect, it } from 'vitest';
import { fakeFetch } from '../../support/fake-fetch.ts';
import { CRAWLER_ROBOTS_TOKEN, DEFAULT_ROBOTS_MAX_BYTES, fetchRobotsTxt, matchesRule, parseRobots } from '../../../src/jobs/frontier/robots.ts';

const ROBOTS_URL = 'https://a.test/robots.txt';
const allowed = (text: string, path: string, ua = CRAWLER_ROBOTS_TOKEN) => parseRobots(ROBOTS_URL, text, ua).isAllowed(`https://a.test${path}`);

describe('fetchRobotsTxt', () => {
  it('GETs /robots.txt of the origin and returns its text', async () => {
    const requested: string[] = [];
    const text = await fetchRobotsTxt('https://a.test', fakeFetch({ [ROBOTS_URL]: { status: 200, body: 'User-agent: *\nDisallow: /x' } }, requested));
    expect(requested).toEqual([ROBOTS_URL]);
    expect(text).toBe('User-agent: *\nDisallow: /x');
  });

  it('takes the text a redirect led to', async () => {
    const fetch = fakeFetch({ [ROBOTS_URL]: { status: 200, body: 'User-agent: *\nDisallow: /', finalUrl: 'https://www.a.test/robots.txt' } });
    expect(await fetchRobotsTxt('https://a.test/', fetch)).toBe('User-agent: *\nDisallow: /');
  });

  it('means "everything allowed" for 4xx, 5xx and network errors', async () => {
    expect(await fetchRobotsTxt('https://a.test', fakeFetch({}))).toBeNull();
    expect(await fetchRobotsTxt('https://a.test', fakeFetch({ [ROBOTS_URL]: { status: 403 } }))).toBeNull();
    expect(await fetchRobotsTxt('https://a.test', fakeFetch({ [ROBOTS_URL]: { status: 503, body: 'User-agent: *\nDisallow: /' } }))).toBeNull();
    expect(await fetchRobotsTxt('https://a.test', fakeFetch({ [ROBOTS_URL]: new Error('blocked address') }))).toBeNull();
    expect(parseRobots(ROBOTS_URL, null, CRAWLER_ROBOTS_TOKEN).isAllowed('https://a.test/anything')).toBe(true);
  });

  it('drops a BOM and reads at most 500 KB', async () => {
    const big = `\uFEFFUser-agent: *\nDisallow: /early\n#${'x'.repeat(600 * 1024)}\nDisallow: /late\n`;
    const text = await fetchRobotsTxt('https://a.test', fakeFetch({ [ROBOTS_URL]: { status: 200, body: big } }));
    expect(text?.startsWith('User-agent')).toBe(true);
    expect(Buffer.byteLength(text ?? '')).toBeLessThanOrEqual(500 * 1024);
    expect(allowed(text ?? '', '/early')).toBe(false);
    expect(allowed(text ?? '', '/late')).toBe(true);
  });

  it('cuts at the last line break before the limit, so no rule is read half', async () => {
    const body = 'User-agent: *\nDisallow: /private-area\n';
    const text = await fetchRobotsTxt('https://a.test', fakeFetch({ [ROBOTS_URL]: { status: 200, body } }), 30);
    expect(text).toBe('User-agent: *\n');
    expect(allowed(text ?? '', '/private')).toBe(true);
  });
});

describe('parseRobots', () => {
  it('lets the longest matching rule win, Allow on a tie', () => {
    const text = 'User-agent: *\nDisallow: /private\nAllow: /private/public\nDisallow: /page\nAllow: /page\n';
    expect(allowed(text, '/private/x')).toBe(false);
    expect(allowed(text, '/private/public/y')).toBe(true);
    expect(allowed(text, '/page')).toBe(true);
    expect(allowed(text, '/other')).toBe(true);
  });

  it('supports * and $ in patterns and matches the query string', () => {
    const text = 'User-agent: *\nDisallow: /*.pdf$\nDisallow: /search*q=\n';
    expect(allowed(text, '/docs/file.pdf')).toBe(false);
    expect(allowed(text, '/docs/file.pdf?download=1')).toBe(true);
    expect(allowed(text, '/search?lang=en&q=x')).toBe(false);
    expect(allowed(text, '/search?lang=en')).toBe(true);
  });

  it('prefers a group naming the crawler over *, case-insensitively', () => {
    const text = 'User-agent: *\nDisallow: /\n\nUser-agent: crawlservicebot\nDisallow: /admin\n';
    expect(allowed(text, '/')).toBe(true);
    expect(allowed(text, '/admin/users')).toBe(false);
    expect(allowed(text, '/', 'OtherBot')).toBe(false);
  });

  it('evaluates a custom robotsUserAgent instead of our token', () => {
    const text = 'User-agent: CrawlServiceBot\nDisallow: /\n\nUser-agent: AcmeBot\nDisallow: /acme-only\n';
    expect(allowed(text, '/page', 'AcmeBot')).toBe(true);
    expect(allowed(text, '/acme-only', 'AcmeBot/2.1')).toBe(false);
    expect(allowed(text, '/page')).toBe(false);
  });

  it('finds the bot token inside a full User-Agent header', () => {
    const text = 'User-agent: *\nDisallow: /\n\nUser-agent: CrawlServiceBot\nAllow: /\nDisallow: /admin\n';
    const chromeLike = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36 CrawlServiceBot/1.0';
    const compatible = 'Mozilla/5.0 (compatible; CrawlServiceBot/1.0; +https://crawl.example/bot)';
    for (const ua of [chromeLike, compatible, 'CrawlServiceBot/1.0', 'crawlservicebot']) {
      expect(allowed(text, '/page', ua)).toBe(true);
      expect(allowed(text, '/admin', ua)).toBe(false);
    }
    expect(allowed(text, '/page', 'Mozilla/5.0 (compatible; OtherBot/1.0)')).toBe(false);
  });

  it('collects Sitemap lines as absolute http(s) URLs', () => {
    const text =
      'Sitemap: https://a.test/sitemap_index.xml\nUser-agent: *\nDisallow:\nsitemap: /news.xml\nSitemap: ftp://a.test/x.xml\nSitemap: https://cdn.test/s.xml.gz\nSitemap: /news.xml\n';
    expect(parseRobots(ROBOTS_URL, text, CRAWLER_ROBOTS_TOKEN).sitemaps).toEqual([
      'https://a.test/sitemap_index.xml',
      'https://a.test/news.xml',
      'https://cdn.test/s.xml.gz',
    ]);
    expect(parseRobots(ROBOTS_URL, null, CRAWLER_ROBOTS_TOKEN).sitemaps).toEqual([]);
  });

  it('only speaks for its own origin', () => {
    const robots = parseRobots(ROBOTS_URL, 'User-agent: *\nDisallow: /\n', CRAWLER_ROBOTS_TOKEN);
    expect(robots.isAllowed('https://a.test/x')).toBe(false);
    expect(robots.isAllowed('https://A.TEST:443/x')).toBe(false);
    expect(robots.isAllowed('http://a.test/x')).toBe(true);
    expect(robots.isAllowed('https://a.test:8443/x')).toBe(true);
    expect(robots.isAllowed('https://b.test/x')).toBe(true);
  });
});

describe('robots.txt groups, as Google reads them', () => {
  it('ignores rules before the first User-agent', () => {
    expect(allowed('Disallow: /\nUser-agent: *\nDisallow: /x\n', '/page')).toBe(true);
  });

  it('keeps a group open across blank lines, comments and Sitemap or unknown lines', () => {
    const text = 'User-agent: a\n\n# note\nSitemap: /s.xml\nCrawl-delay: 5\nUser-agent: CrawlServiceBot\nDisallow: /shared\n';
    expect(allowed(text, '/shared')).toBe(false);
    expect(allowed(text, '/shared', 'a')).toBe(false);
  });

  it('starts a new group at a User-agent line after a rule, and merges groups naming the same agent', () => {
    const text = 'User-agent: CrawlServiceBot\nDisallow: /one\nUser-agent: other\nDisallow: /two\n\nUser-agent: crawlservicebot\nDisallow: /three\n';
    expect(allowed(text, '/one')).toBe(false);
    expect(allowed(text, '/two')).toBe(true);
    expect(allowed(text, '/three')).toBe(false);
  });

  it('uses a group naming the crawler even when it has no rules, instead of *', () => {
    expect(allowed('User-agent: *\nDisallow: /\n\nUser-agent: CrawlServiceBot\nDisallow:\n', '/page')).toBe(true);
  });

  it('compares percent-encoded forms', () => {
    const text = 'User-agent: *\nDisallow: /café\nDisallow: /a%2fb\n';
    expect(allowed(text, '/caf%C3%A9/menu')).toBe(false);
    expect(allowed(text, '/a%2Fb')).toBe(false);
  });
});

describe('matchesRule', () => {
  it.each([
    ['/', '/anything', true],
    ['/fish', '/fish.html', true],
    ['/fish', '/Fish', false],
    ['/fish$', '/fish', true],
    ['/fish$', '/fish/', false],
    ['/*.php', '/folder/index.php?x=1', true],
    ['/*.php$', '/folder/index.php?x=1', false],
    ['/*.php$', '/a.php.php', true],
    ['/a*b*c', '/a-c-b-c', true],
    ['/a*b*c$', '/abcbc', true],
    ['/a*bc$', '/abcb', false],
    ['*/x', '/a/x', true],
    ['/a**$', '/a', true],
    ['/p$x', '/p$x', true],
  ])('%s against %s is %s', (pattern, path, expected) => {
    expect(matchesRule(pattern, path)).toBe(expected);
  });
});

describe('hostile robots.txt', () => {
  it('parses 500 KB of blank lines in under a second, keeping the group open', () => {
    const text = `User-agent: *\n${'\n'.repeat(260_000)}${' \r\n'.repeat(83_000)}Disallow: /private\nSitemap: /late-sitemap.xml\n`;
    expect(text.length).toBeGreaterThan(500_000);
    expect(text.length).toBeLessThanOrEqual(DEFAULT_ROBOTS_MAX_BYTES);
    const started = performance.now();
    const robots = parseRobots(ROBOTS_URL, text, CRAWLER_ROBOTS_TOKEN);
    const privateAllowed = robots.isAllowed('https://a.test/private/x');
    expect(performance.now() - started).toBeLessThan(1000);
    expect(privateAllowed).toBe(false);
    expect(robots.sitemaps).toEqual(['https://a.test/late-sitemap.xml']);
  });

  it('parses and applies a 500 KB wildcard rule in under a second', () => {
    const text = `User-agent: *\nDisallow: /${'*'.repeat(250_000)}x${'*'.repeat(250_000)}$\n`;
    expect(text.length).toBeGreaterThan(500_000);
    expect(text.length).toBeLessThanOrEqual(DEFAULT_ROBOTS_MAX_BYTES);
    const path = `/${'a'.repeat(2_000)}`;
    const started = performance.now();
    const robots = parseRobots(ROBOTS_URL, text, CRAWLER_ROBOTS_TOKEN);
    const decisions = [robots.isAllowed(`https://a.test${path}`), robots.isAllowed(`https://a.test${path}x${path}`)];
    expect(performance.now() - started).toBeLessThan(1000);
    expect(decisions).toEqual([true, false]);
  });
});
