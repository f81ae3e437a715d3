import { describe, expect, it } from 'vitest';
import { createSessionSchema } from '../../../src/features/browser-sessions/gateway/session-request.ts';
import { scrapeBrowsing } from '../../../src/features/browser-sessions/gateway/interact/scrape-interaction.ts';
import { rejectMessage } from '../api/helpers.ts';

describe('createSessionSchema: blockAds and location', () => {
  it('blocks ads unless told not to, and takes the location as a scrape does', () => {
    expect(createSessionSchema.parse({})).toMatchObject({ blockAds: true });
    expect(createSessionSchema.parse({}).location).toBeUndefined();
    expect(createSessionSchema.parse({ blockAds: false }).blockAds).toBe(false);
    // What the Python SDK sends: the country alone.
    expect(createSessionSchema.parse({ location: { country: 'gb' } }).location).toStrictEqual({ country: 'GB' });
    expect(createSessionSchema.parse({ location: { country: 'DE', languages: ['de-DE', 'en'] } }).location).toStrictEqual({
      country: 'DE',
      languages: ['de-DE', 'en'],
    });
    expect(createSessionSchema.parse({ location: { country: 'us-generic' } }).location).toStrictEqual({ country: 'US' });
    expect(createSessionSchema.parse({ location: {} }).location).toStrictEqual({ country: 'US' });
  });

  it('refuses bad values with the usual envelope', () => {
    expect(rejectMessage(createSessionSchema, { blockAds: 'yes' }).error).toBe('blockAds: blockAds must be true or false');
    expect(rejectMessage(createSessionSchema, { location: { country: 'GBR' } }).error).toBe(
      'location.country: location.country must be a 2-letter ISO 3166-1 country code (or us-generic)',
    );
    expect(rejectMessage(createSessionSchema, { location: 'GB' }).error).toBe('location: Invalid input: expected object, received string');
    // Strict inside, as a scrape's location: the body's own unknown keys pass, location's do not.
    expect(rejectMessage(createSessionSchema, { location: { country: 'GB', city: 'London' } })).toMatchObject({
      error: 'Unrecognized key in body -- please review the v2 API documentation for request body changes',
      details: [{ code: 'unrecognized_keys', keys: ['city'], path: ['location'] }],
    });
    expect(rejectMessage(createSessionSchema, { location: { country: 'GB', languages: [''] } }).error).toMatch(/^location\.languages\.0: /);
    expect(rejectMessage(createSessionSchema, { location: { country: 'GB', languages: Array(51).fill('en') } }).error).toMatch(/^location\.languages: /);
  });

  it('still lets unknown fields through, as upstream', () => {
    expect(createSessionSchema.parse({ recordings: true })).not.toHaveProperty('recordings');
  });

  it('takes a proxy mode as a scrape does, basic by default', () => {
    expect(createSessionSchema.parse({}).proxy).toBe('basic');
    expect(createSessionSchema.parse({ proxy: 'stealth' }).proxy).toBe('stealth');
    expect(rejectMessage(createSessionSchema, { proxy: 'residential' }).error).toBe('proxy: proxy must be one of basic, stealth, enhanced, auto');
  });
});

describe('scrapeBrowsing', () => {
  it('gives the session of a scrape interaction the scrape’s ad blocking, location and proxy', () => {
    expect(
      scrapeBrowsing({ options: { url: 'http://a.test/', scrapeOptions: { blockAds: false, location: { country: 'DE' }, proxy: 'stealth' } } }),
    ).toStrictEqual({
      blockAds: false,
      proxy: 'stealth',
      location: { country: 'DE' },
    });
    expect(scrapeBrowsing({ options: { url: 'http://a.test/', scrapeOptions: { blockAds: true } } })).toStrictEqual({ blockAds: true, proxy: 'basic' });
    // A row stored before scrape options were kept whole: the scrape's default.
    expect(scrapeBrowsing({ options: { url: 'http://a.test/' } })).toStrictEqual({ blockAds: true, proxy: 'basic' });
  });
});
