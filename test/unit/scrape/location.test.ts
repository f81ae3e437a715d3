import { describe, expect, it } from 'vitest';
import { languagesOfHeader, locationSettings } from '../../../src/page/location.ts';

describe('locationSettings', () => {
  it('derives locale and time zone from the country when no languages are given', () => {
    expect(locationSettings({ country: 'US' })).toEqual({ locale: 'en-US', timezoneId: 'America/New_York', languages: ['en-US'] });
    expect(locationSettings({ country: 'DE' })).toEqual({ locale: 'de-DE', timezoneId: 'Europe/Berlin', languages: ['de-DE'] });
    expect(locationSettings({ country: 'FR' }).locale).toBe('fr-FR');
    expect(locationSettings({ country: 'JP' })).toMatchObject({ locale: 'ja-JP', timezoneId: 'Asia/Tokyo' });
    expect(locationSettings({ country: 'BR' })).toMatchObject({ locale: 'pt-BR', timezoneId: 'America/Sao_Paulo' });
  });

  it('falls back to English for the country and UTC for countries it does not know', () => {
    expect(locationSettings({ country: 'zz' })).toEqual({ locale: 'en-ZZ', timezoneId: 'UTC', languages: ['en-ZZ'] });
  });

  it('takes the first language as the locale and keeps the country time zone', () => {
    expect(locationSettings({ country: 'CH', languages: ['fr-CH', 'de-CH', 'en'] })).toEqual({
      locale: 'fr-CH',
      timezoneId: 'Europe/Zurich',
      languages: ['fr-CH', 'de-CH', 'en'],
    });
  });

  it('canonicalises languages and drops invalid or repeated ones, which Chromium would refuse', () => {
    expect(locationSettings({ country: 'DE', languages: ['DE-de', 'not a tag', 'en', 'de-DE'] }).languages).toEqual(['de-DE', 'en']);
    expect(locationSettings({ country: 'DE', languages: ['%%'] })).toMatchObject({ locale: 'de-DE', languages: ['de-DE'] });
  });
});

describe('languagesOfHeader', () => {
  it('lists the tags in header order without q-values', () => {
    expect(languagesOfHeader('fr-CH, fr;q=0.9, en;q=0.8, *;q=0.5')).toEqual(['fr-CH', 'fr', 'en']);
    expect(languagesOfHeader('')).toEqual([]);
  });
});
