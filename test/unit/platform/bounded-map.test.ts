import { describe, expect, it } from 'vitest';
import { BoundedMap } from '../../../src/platform/bounded-map.ts';

describe('BoundedMap', () => {
  it('keeps what it made, and forgets the least recently used key beyond its size', () => {
    const m = new BoundedMap<string, number[]>(2);
    const a = m.getOrSet('a', () => [1]);
    expect(m.getOrSet('a', () => [2])).toBe(a);
    m.getOrSet('b', () => [3]);
    m.getOrSet('a', () => [4]); // a is now the most recent
    m.getOrSet('c', () => [5]); // b goes
    expect(m.size).toBe(2);
    expect(m.getOrSet('a', () => [6])).toBe(a);
    expect(m.getOrSet('b', () => [7])).toEqual([7]);
  });
});
