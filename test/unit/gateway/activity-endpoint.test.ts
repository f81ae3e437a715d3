import { describe, expect, it } from 'vitest';
import { activityEndpoint, auditUsername } from '../../../src/platform/http/activity-log.ts';

describe('activityEndpoint', () => {
  it('maps paths to the endpoint names of the activity listing', () => {
    expect(activityEndpoint('/v2/crawl')).toBe('crawl');
    expect(activityEndpoint('/v2/crawl/0189-x/errors')).toBe('crawl');
    expect(activityEndpoint('/v2/batch/scrape/1')).toBe('batch_scrape');
    expect(activityEndpoint('/v2/deep-research')).toBe('deep_research');
    expect(activityEndpoint('/v2/browser/s/execute')).toBe('browser');
    expect(activityEndpoint('/v2/search')).toBe('search');
  });

  it('names an unknown first segment as it is, even one that is an Object.prototype key', () => {
    expect(activityEndpoint('/v2/valueOf')).toBe('valueOf');
    expect(activityEndpoint('/v2/constructor/x')).toBe('constructor');
    expect(activityEndpoint('/v2/__proto__')).toBe('__proto__');
  });
});

describe('auditUsername', () => {
  it('reads auditMetadata.username at the top level, else in scrapeOptions', () => {
    expect(auditUsername({ url: 'x', auditMetadata: { username: 'ada' }, scrapeOptions: { auditMetadata: { username: 'grace' } } })).toBe('ada');
    expect(auditUsername({ url: 'x', scrapeOptions: { auditMetadata: { username: 'grace' } } })).toBe('grace');
  });

  it('records nothing for a body without one, or with one of another shape, and at most 1024 characters', () => {
    for (const body of [undefined, null, 'text', [], {}, { auditMetadata: 'ada' }, { auditMetadata: { username: 7 } }, { auditMetadata: { username: '' } }])
      expect(auditUsername(body)).toBeNull();
    expect(auditUsername({ auditMetadata: { username: 'a'.repeat(5000) } })).toHaveLength(1024);
    expect(auditUsername({ auditMetadata: { username: 'a\u0000b' } })).not.toContain('\u0000');
  });
});
