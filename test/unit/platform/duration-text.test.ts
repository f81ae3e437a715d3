import { describe, expect, it } from 'vitest';
import { durationText } from '../../../src/platform/duration-text.ts';

describe('durationText', () => {
  it('reads as an operator would say it', () => {
    expect(durationText(0)).toBe('0 ms');
    expect(durationText(800)).toBe('800 ms');
    expect(durationText(2000)).toBe('2 s');
    expect(durationText(1500)).toBe('1.5 s');
    expect(durationText(59_940)).toBe('59.9 s');
    expect(durationText(180_000)).toBe('3 min');
    expect(durationText(125_000)).toBe('2 min 5 s');
    expect(durationText(3_599_600)).toBe('1 h');
    expect(durationText(4_800_000)).toBe('1 h 20 min');
    expect(durationText(7_200_000)).toBe('2 h');
  });
});
