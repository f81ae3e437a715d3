import { describe, expect, it } from 'vitest';
import { MALLOC_ARENA_MAX, withMallocArenas } from '../../../src/platform/process/malloc-arenas.ts';

describe('withMallocArenas', () => {
  it('adds two arenas to an environment without the setting', () => {
    expect(MALLOC_ARENA_MAX).toBe('2');
    expect(withMallocArenas({ PATH: '/bin' })).toEqual({ PATH: '/bin', MALLOC_ARENA_MAX: '2' });
  });

  it("keeps the operator's own setting", () => {
    expect(withMallocArenas({ MALLOC_ARENA_MAX: '8' })).toEqual({ MALLOC_ARENA_MAX: '8' });
  });
});
