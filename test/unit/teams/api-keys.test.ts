import { describe, expect, it } from 'vitest';
import { generateApiKey, hashApiKey, keyPrefix } from '../../../src/platform/teams/api-keys.ts';

describe('API keys', () => {
  it('are random, prefixed, and hashed deterministically', () => {
    const a = generateApiKey();
    const b = generateApiKey();
    expect(a).toMatch(/^fc-[0-9a-f]{32}$/);
    expect(a).not.toBe(b);
    expect(hashApiKey(a)).toBe(hashApiKey(a));
    expect(hashApiKey(a)).not.toBe(hashApiKey(b));
    expect(hashApiKey(a)).not.toContain(a.slice(3));
    expect(keyPrefix(a)).toBe(a.slice(0, 9));
  });
});
