import { describe, expect, it } from 'vitest';
import { pageCredits } from '../../../src/platform/usage/credits.ts';

describe('pageCredits', () => {
  it('adds 4 per answered model format to the page, zero data retention and PDF costs', () => {
    expect(pageCredits({ zeroDataRetention: false })).toBe(1);
    expect(pageCredits({ zeroDataRetention: false, modelFormats: 1 })).toBe(5);
    expect(pageCredits({ zeroDataRetention: true, modelFormats: 1 })).toBe(6);
    expect(pageCredits({ zeroDataRetention: false, pdfPages: 3, modelFormats: 3 })).toBe(1 + 2 + 12);
  });
});
