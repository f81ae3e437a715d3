// The format registry and what generic code derives from it: the formats
// option, the page cache key (byte for byte the structure keys had before the
// registry, so cached pages still match) and the formats' credits.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cacheKey } from '../../../src/jobs/pages/page-cache.ts';
import { answeredCredits, mostFormatCredits } from '../../../src/page/formats/format-costs.ts';
import { FORMAT_NAMES } from '../../../src/page/formats/formats-schema.ts';
import { FORMATS, requestedFormats, SUPPORTED_FORMATS } from '../../../src/page/formats/registry.ts';
import { scrapeOptionsSchema, type ScrapeOptionsInput } from '../../../src/page/scrape-options.ts';
import { requestNeedsBrowser } from '../../../src/page/rendering/needs-browser.ts';

const parse = (input: ScrapeOptionsInput) => scrapeOptionsSchema.parse(input);

describe('the registry', () => {
  it('holds each format once, named as its schema names it, and every name parses alone', () => {
    expect(new Set(SUPPORTED_FORMATS).size).toBe(FORMATS.length);
    for (const module of FORMATS) expect(module.schema.safeParse({ type: module.type }).error?.issues.some((i) => i.path[0] === 'type')).not.toBe(true);
    expect(FORMAT_NAMES).toEqual([...SUPPORTED_FORMATS, 'screenshot@fullPage']);
    for (const name of ['markdown', 'html', 'rawHtml', 'links', 'images', 'summary', 'screenshot', 'product', 'menu', 'attributes', 'branding']) {
      expect(parse({ formats: [name] as ScrapeOptionsInput['formats'] }).formats).toEqual([expect.objectContaining({ type: name })]);
    }
  });

  it('lists a request’s formats once each, in its own order', () => {
    const so = parse({ formats: ['branding', 'links', 'markdown', 'links'] });
    expect(requestedFormats(so.formats).map(({ module }) => module.type)).toEqual(['markdown', 'links', 'branding']);
    expect(requestNeedsBrowser(parse({ formats: ['branding', 'screenshot'] }))).toBe('a screenshot');
    expect(requestNeedsBrowser(parse({ formats: ['branding'] }))).toBe('the branding format');
    expect(requestNeedsBrowser(parse({ formats: ['markdown', 'images'] }))).toBeUndefined();
  });
});

describe('the page cache key', () => {
  const sha = (shaping: unknown) => createHash('sha256').update(JSON.stringify(shaping)).digest('hex');
  const base = { mobile: false, location: null, waitFor: 0, blockAds: true, parsers: [{ type: 'pdf' }, { type: 'image' }] };

  it('is the structure it was before formats had modules: the screenshot (or null) after the URL, branding last and only when asked', () => {
    const url = 'https://example.com/';
    expect(cacheKey(url, parse({}))).toBe(sha({ url, screenshot: null, ...base }));
    const shot = { type: 'screenshot' as const, fullPage: true, quality: 80, viewport: { width: 800, height: 600 } };
    expect(cacheKey(url, parse({ formats: ['markdown', shot] }))).toBe(sha({ url, screenshot: shot, ...base }));
    expect(cacheKey(url, parse({ formats: ['screenshot@fullPage', 'branding'] }))).toBe(
      sha({ url, screenshot: { type: 'screenshot', fullPage: true }, ...base, branding: true }),
    );
    // Formats that read the load, cached or fresh, add nothing.
    expect(cacheKey(url, parse({ formats: ['html', 'links', 'images', 'summary'] }))).toBe(cacheKey(url, parse({})));
  });
});

describe('the formats’ credits', () => {
  it('adds a model format’s credits per answer, and at most those of every format that may need a model', () => {
    expect(answeredCredits(['json', 'product', 'changeTracking'])).toBe(12);
    expect(answeredCredits([])).toBe(0);
    const so = parse({
      formats: ['markdown', { type: 'json', prompt: 'p' }, 'product', 'product', { type: 'changeTracking', modes: ['json'] }, 'branding'],
    });
    expect(mostFormatCredits(so.formats)).toBe(16);
    expect(mostFormatCredits(parse({ formats: ['markdown', { type: 'changeTracking', modes: ['git-diff'] }] }).formats)).toBe(0);
  });
});
