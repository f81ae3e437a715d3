import { describe, expect, it } from 'vitest';
import { DIFF_TOO_LARGE_WARNING, MAX_DIFF_MARKDOWN_CHARS, MAX_DIFF_MARKDOWN_LINES, trackChange } from '../../../src/page/change-tracking/track-change.ts';

const at = new Date('2026-11-27T10:00:00.000Z');

describe('trackChange', () => {
  it('is new without a snapshot, with no previous time and no diff', () => {
    expect(trackChange(undefined, { markdown: '# A' }, { modes: ['git-diff', 'json'] })).toEqual({
      changeTracking: { previousScrapeAt: null, changeStatus: 'new', visibility: 'visible' },
    });
  });

  it('is same for the same markdown, with the snapshot time', () => {
    expect(trackChange({ markdown: '# A', scrapedAt: at }, { markdown: '# A' }, { modes: ['git-diff'] })).toEqual({
      changeTracking: { previousScrapeAt: '2026-11-27T10:00:00.000Z', changeStatus: 'same', visibility: 'visible' },
    });
  });

  it('is changed with a diff in git-diff mode only', () => {
    const changed = trackChange({ markdown: '# A\n\nold', scrapedAt: at }, { markdown: '# A\n\nnew' }, { modes: ['git-diff'] });
    expect(changed.changeTracking.changeStatus).toBe('changed');
    expect(changed.changeTracking.diff?.text).toBe('--- previous\n+++ current\n@@ -1,3 +1,3 @@\n # A\n \n-old\n+new\n');
    expect(trackChange({ markdown: 'x', scrapedAt: at }, { markdown: 'y' }, { modes: [] }).changeTracking).toEqual({
      previousScrapeAt: '2026-11-27T10:00:00.000Z',
      changeStatus: 'changed',
      visibility: 'visible',
    });
  });

  it('compares the fields in json mode when both versions have them', () => {
    const previous = { markdown: 'Price: $9', fields: { price: '$9', name: 'Pro' }, scrapedAt: at };
    const changed = trackChange(previous, { markdown: 'Price: $12', fields: { price: '$12', name: 'Pro' } }, { modes: ['json'] });
    expect(changed.changeTracking).toMatchObject({ changeStatus: 'changed', json: { price: { previous: '$9', current: '$12' } } });
    expect(changed.changeTracking).not.toHaveProperty('diff');
    expect(
      trackChange({ ...previous, fields: undefined }, { markdown: 'Price: $12', fields: { price: '$12' } }, { modes: ['json'] }).changeTracking,
    ).not.toHaveProperty('json');
  });

  it.each([
    ['characters', 'x'.repeat(MAX_DIFF_MARKDOWN_CHARS + 1)],
    ['lines', 'x\n'.repeat(MAX_DIFF_MARKDOWN_LINES + 1)],
  ])('omits the diff of markdown over the cap in %s, on either side, with a warning', (_, big) => {
    for (const [previous, current] of [
      ['small', big],
      [big, 'small'],
    ]) {
      const result = trackChange({ markdown: previous!, scrapedAt: at }, { markdown: current! }, { modes: ['git-diff'] });
      expect(result.changeTracking.changeStatus).toBe('changed');
      expect(result.changeTracking).not.toHaveProperty('diff');
      expect(result.warning).toBe(DIFF_TOO_LARGE_WARNING);
    }
  });

  it('diffs markdown right at the caps', () => {
    const lines = 'x\n'.repeat(MAX_DIFF_MARKDOWN_LINES);
    const result = trackChange({ markdown: 'small', scrapedAt: at }, { markdown: lines }, { modes: ['git-diff'] });
    expect(result.warning).toBeUndefined();
    expect(result.changeTracking.diff?.json.files[0]!.additions).toBe(MAX_DIFF_MARKDOWN_LINES);
  });
});
