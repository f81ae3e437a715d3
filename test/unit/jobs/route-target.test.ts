import { describe, expect, it } from 'vitest';
import { lanesFirst, routeTarget, type RoutingRules } from '../../../src/jobs/batch/route-target.ts';
import { NO_CACHED_DATA } from '../../../src/jobs/pages/page-cache.ts';

const rules = (over: Partial<RoutingRules> = {}): RoutingRules => ({ cacheOnly: false, rendering: 'auto', scriptedHost: () => false, ...over });
const cached = { finalUrl: 'https://a.test/', statusCode: 200, rawHtml: '<p>x</p>' };

describe('routeTarget', () => {
  it('settles a cached copy before anything else', () => {
    expect(routeTarget('https://a.test/doc.pdf', cached, rules({ cacheOnly: true, rendering: 'http', browserRequired: 'actions' }))).toEqual({
      to: 'cache',
      load: cached,
    });
  });

  it('refuses a URL threat protection blocks before its cached copy', () => {
    const threatRefusal = (url: string) => (url.includes('evil') ? 'blocked by threat protection' : undefined);
    expect(routeTarget('https://evil.test/', cached, rules({ threatRefusal }))).toEqual({ to: 'refuse', error: 'blocked by threat protection' });
    expect(routeTarget('https://a.test/', cached, rules({ threatRefusal })).to).toBe('cache');
  });

  it('refuses without a cached copy under minAge, and a browser-only request under http', () => {
    expect(routeTarget('https://a.test/', undefined, rules({ cacheOnly: true }))).toEqual({ to: 'refuse', error: NO_CACHED_DATA });
    const refused = routeTarget('https://a.test/', undefined, rules({ rendering: 'http', browserRequired: 'actions' }));
    expect(refused.to).toBe('refuse');
  });

  it('fetches a PDF as a file on every path', () => {
    for (const rendering of ['auto', 'http', 'browser'] as const)
      expect(routeTarget('https://a.test/x/Report.PDF', undefined, rules({ rendering })).to).toBe('file');
  });

  it('fetches an image URL as a file when the image parser is on, as a page otherwise', () => {
    for (const rendering of ['auto', 'http', 'browser'] as const) {
      expect(routeTarget('https://a.test/scan.PNG', undefined, rules({ rendering, imageFiles: true })).to).toBe('file');
      expect(routeTarget('https://a.test/scan.avif?x=1', undefined, rules({ rendering, imageFiles: true })).to).toBe('file');
    }
    expect(routeTarget('https://a.test/scan.png', undefined, rules()).to).toBe('http');
    expect(routeTarget('https://a.test/logo.svg', undefined, rules({ imageFiles: true })).to).toBe('http');
  });

  it('sends a page over HTTP first unless the request, the rendering or the host needs Chromium', () => {
    expect(routeTarget('https://a.test/', undefined, rules()).to).toBe('http');
    expect(routeTarget('https://a.test/', undefined, rules({ rendering: 'http' })).to).toBe('http');
    expect(routeTarget('https://a.test/', undefined, rules({ rendering: 'browser' })).to).toBe('browser');
    expect(routeTarget('https://a.test/', undefined, rules({ browserRequired: 'screenshot' })).to).toBe('browser');
    expect(routeTarget('https://a.test/', undefined, rules({ scriptedHost: (h) => h === 'a.test' })).to).toBe('browser');
    expect(routeTarget('https://b.test/', undefined, rules({ scriptedHost: (h) => h === 'a.test' })).to).toBe('http');
  });
});

describe('lanesFirst', () => {
  it('runs lanes under http, and under auto unless the request needs Chromium', () => {
    expect(lanesFirst({ rendering: 'http' })).toBe(true);
    expect(lanesFirst({ rendering: 'http', browserRequired: 'actions' })).toBe(true);
    expect(lanesFirst({ rendering: 'auto' })).toBe(true);
    expect(lanesFirst({ rendering: 'auto', browserRequired: 'actions' })).toBe(false);
    expect(lanesFirst({ rendering: 'browser' })).toBe(false);
  });
});
