import { describe, expect, it } from 'vitest';
import { pageCredits } from '../../../src/platform/usage/credits.ts';

describe('pageCredits', () => {
  it('adds 4 per answered model format to the page, zero data retention and PDF costs', () => {
    expect(pageCredits({ zeroDataRetention: false })).toBe(1);
    expect(pageCredits({ zeroDataRetention: false, formatCredits: 4 })).toBe(5);
    expect(pageCredits({ zeroDataRetention: true, formatCredits: 4 })).toBe(6);
    expect(pageCredits({ zeroDataRetention: false, pdfPages: 3, formatCredits: 12 })).toBe(1 + 2 + 12);
  });

  it('adds 4 for a redacted page, and 4 more per PDF page beyond the first', () => {
    expect(pageCredits({ zeroDataRetention: false, redacted: true })).toBe(5);
    expect(pageCredits({ zeroDataRetention: true, formatCredits: 4, redacted: true })).toBe(10);
    expect(pageCredits({ zeroDataRetention: false, pdfPages: 3, redacted: true })).toBe(1 + 2 + 12);
  });
});
