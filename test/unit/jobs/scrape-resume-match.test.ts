import { describe, expect, it } from 'vitest';
import { resumableTimeoutDetails, resumeChoice, scrapePageBudgetMs, scrapeResumeKey } from '../../../src/jobs/scrape-resume-match.ts';

const body = { url: 'https://example.com/report.pdf', formats: ['markdown', { type: 'screenshot', fullPage: true }], timeout: 30000, origin: 'js-sdk@4.42.0' };

describe('scrapeResumeKey', () => {
  it('is the same for the same body, whatever the order of its keys', () => {
    const reordered = {
      origin: 'js-sdk@4.42.0',
      timeout: 30000,
      formats: ['markdown', { fullPage: true, type: 'screenshot' }],
      url: 'https://example.com/report.pdf',
    };
    expect(scrapeResumeKey(reordered)).toBe(scrapeResumeKey(body));
    expect(scrapeResumeKey(structuredClone(body))).toMatch(/^[0-9a-f]{64}$/);
  });

  it('differs when any value, array order or field differs', () => {
    const key = scrapeResumeKey(body);
    const variants: unknown[] = [
      { ...body, url: 'https://example.com/report.pdf?x=1' },
      { ...body, timeout: 30001 },
      { ...body, origin: 'python-sdk@4.54.0' },
      { ...body, formats: [...body.formats].reverse() },
      { ...body, formats: ['markdown', { type: 'screenshot', fullPage: false }] },
      { ...body, maxAge: 0 },
      // A string is not the number it spells, nor null an absent field.
      { ...body, timeout: '30000' },
      { ...body, mobile: null },
    ];
    for (const variant of variants) expect(scrapeResumeKey(variant)).not.toBe(key);
  });

  it('reads a body nested as deep as a JSON parser allows without recursion', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(scrapeResumeKey({ url: 'https://example.com/', headers: deep })).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('resumeChoice', () => {
  const now = new Date('2026-11-29T12:00:00Z');
  const later = new Date(now.getTime() + 1);
  const earlier = new Date(now.getTime() - 1);

  it('attaches to a running scrape, whether or not it answered a 408', () => {
    expect(resumeChoice({ status: 'scraping', resumableUntil: null }, now)).toBe('attach');
    expect(resumeChoice({ status: 'scraping', resumableUntil: earlier }, now)).toBe('attach');
  });

  it('attaches to an ended scrape only within the window its latest 408 opened', () => {
    for (const status of ['completed', 'failed']) {
      expect(resumeChoice({ status, resumableUntil: later }, now)).toBe('attach');
      expect(resumeChoice({ status, resumableUntil: now }, now)).toBe('replace');
      expect(resumeChoice({ status, resumableUntil: earlier }, now)).toBe('replace');
    }
  });

  it('replaces an ended scrape that never timed out: the same request again is a new scrape', () => {
    expect(resumeChoice({ status: 'completed', resumableUntil: null }, now)).toBe('replace');
    expect(resumeChoice({ status: 'cancelled', resumableUntil: null }, now)).toBe('replace');
  });
});

describe('the 408 the SDKs resume from', () => {
  it('carries the state and delay both SDKs read', () => {
    expect(resumableTimeoutDetails('019ab0c0-0000-7000-8000-000000000001', 5)).toEqual({
      id: '019ab0c0-0000-7000-8000-000000000001',
      state: 'processing_continues',
      retryAfterSeconds: 5,
    });
  });
});

describe('scrapePageBudgetMs', () => {
  it('lets the page go on past a shorter timeout, and never cuts a longer one', () => {
    expect(scrapePageBudgetMs(2000, 120_000)).toBe(120_000);
    expect(scrapePageBudgetMs(200_000, 120_000)).toBe(200_000);
    expect(scrapePageBudgetMs(1000, 1000)).toBe(1000);
  });
});
