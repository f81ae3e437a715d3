import { describe, expect, it } from 'vitest';
import { holderSettled, resumableTimeoutDetails, resumeChoice, scrapePageBudgetMs, scrapeResumeKey } from '../../../src/jobs/scrape-resume-match.ts';

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

  it('attaches to a scrape at work, whether or not it answered a 408', () => {
    expect(resumeChoice({ status: 'scraping', pageStored: false, resumableUntil: null }, now)).toBe('attach');
    expect(resumeChoice({ status: 'scraping', pageStored: false, resumableUntil: earlier }, now)).toBe('attach');
  });

  it('attaches to a settled scrape only within the window its latest 408 opened', () => {
    const settled = [
      { status: 'completed', pageStored: true },
      { status: 'failed', pageStored: false },
      // Its page is stored and answered; only its row's end is not recorded yet.
      { status: 'scraping', pageStored: true },
    ];
    for (const holder of settled) {
      expect(holderSettled({ ...holder, resumableUntil: null })).toBe(true);
      expect(resumeChoice({ ...holder, resumableUntil: later }, now)).toBe('attach');
      expect(resumeChoice({ ...holder, resumableUntil: now }, now)).toBe('replace');
      expect(resumeChoice({ ...holder, resumableUntil: earlier }, now)).toBe('replace');
    }
  });

  it('replaces a settled scrape that never timed out: the same request again is a new scrape', () => {
    expect(resumeChoice({ status: 'completed', pageStored: true, resumableUntil: null }, now)).toBe('replace');
    expect(resumeChoice({ status: 'scraping', pageStored: true, resumableUntil: null }, now)).toBe('replace');
    expect(resumeChoice({ status: 'cancelled', pageStored: false, resumableUntil: null }, now)).toBe('replace');
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
