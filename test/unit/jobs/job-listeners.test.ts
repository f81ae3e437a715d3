import { describe, expect, it, vi } from 'vitest';
import { JobListeners, type JobListener } from '../../../src/jobs/job-listeners.ts';

const listener = (over: Partial<JobListener> = {}): JobListener => ({ ended: vi.fn(), gap: vi.fn(), ...over });

describe('JobListeners', () => {
  it('tells a job ended to its own listeners only', () => {
    const listeners = new JobListeners();
    const mine = listener();
    const other = listener();
    listeners.add('a', mine);
    listeners.add('b', other);
    expect(listeners.tell({ jobId: 'a', ended: true })).toBeUndefined();
    expect(mine.ended).toHaveBeenCalledOnce();
    expect(other.ended).not.toHaveBeenCalled();
  });

  it('tells a stored page at once, and asks for its document only when a listener wants documents', () => {
    const listeners = new JobListeners();
    const watcher = listener({ stored: vi.fn() });
    listeners.add('a', watcher);
    expect(listeners.tell({ jobId: 'a', pageId: 7n })).toBeUndefined();
    expect(watcher.stored).toHaveBeenCalledWith(7n);

    const reader = listener({ page: vi.fn() });
    listeners.add('a', reader);
    expect(listeners.tell({ jobId: 'a', pageId: 8n })).toBe(8n);
    listeners.page('a', 8n, { markdown: '# x' });
    expect(reader.page).toHaveBeenCalledWith(8n, { markdown: '# x' });
  });

  it('asks for no document when the listener that wanted it left on being told the page was stored', () => {
    const listeners = new JobListeners();
    const reader = listener({ page: vi.fn() });
    listeners.add('a', listener({ stored: () => listeners.remove('a', reader) }));
    listeners.add('a', reader);
    expect(listeners.tell({ jobId: 'a', pageId: 9n })).toBeUndefined();
  });

  it('ignores events of jobs nobody listens to, counts listeners of every job and tells them all of a gap', () => {
    const listeners = new JobListeners();
    expect(listeners.tell({ jobId: 'z', pageId: 1n })).toBeUndefined();
    const [x, y, z] = [listener(), listener(), listener()];
    listeners.add('a', x);
    listeners.add('a', y);
    listeners.add('b', z);
    expect(listeners.size).toBe(3);
    listeners.gap();
    for (const l of [x, y, z]) expect(l.gap).toHaveBeenCalledOnce();
    listeners.remove('a', x);
    listeners.remove('a', y);
    listeners.remove('a', y);
    expect(listeners.size).toBe(1);
    expect(listeners.wantsDocuments('a')).toBe(false);
  });
});
