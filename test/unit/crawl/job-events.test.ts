import { describe, expect, it } from 'vitest';
import { parseJobEvent } from '../../../src/jobs/job-events.ts';

describe('parseJobEvent', () => {
  it('reads page and end notifications', () => {
    expect(parseJobEvent('019a0000-0000-7000-8000-000000000001 42')).toEqual({ jobId: '019a0000-0000-7000-8000-000000000001', pageId: 42n });
    expect(parseJobEvent('019a0000-0000-7000-8000-000000000001 end')).toEqual({ jobId: '019a0000-0000-7000-8000-000000000001', ended: true });
  });

  it('ignores anything else', () => {
    expect(parseJobEvent('')).toBeUndefined();
    expect(parseJobEvent('id')).toBeUndefined();
    expect(parseJobEvent('id 4x2')).toBeUndefined();
  });
});
