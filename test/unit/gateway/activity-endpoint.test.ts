import { describe, expect, it } from 'vitest';
import { activityEndpoint } from '../../../src/platform/http/activity-log.ts';

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
