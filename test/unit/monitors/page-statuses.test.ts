// A check's page statuses from its pages' change tracking and the previous check,
// and the summary.
import { describe, expect, it } from 'vitest';
import { checkPageRows, summarise, type CurrentPage, type PreviousPage } from '../../../src/features/monitors/page-statuses.ts';

const JOB = '00000000-0000-4000-8000-000000000001';
const OLD_JOB = '00000000-0000-4000-8000-000000000002';

function current(urlKey: string, extra: Partial<CurrentPage> = {}): CurrentPage {
  return { targetId: 't', urlKey, url: `http://site/${urlKey}`, jobId: JOB, success: true, statusCode: 200, error: null, changeStatus: 'same', ...extra };
}

function previous(urlKey: string, status: PreviousPage['status'] = 'same'): PreviousPage {
  return { targetId: 't', urlKey, url: `http://site/${urlKey}`, status, currentScrapeId: OLD_JOB };
}

describe('checkPageRows', () => {
  it('gives same, changed, new, error and removed, and the summary counts them', () => {
    const diff = { text: '--- previous\n+++ current\n', json: { files: [] } };
    const rows = checkPageRows(
      [
        current('a'),
        current('b', { changeStatus: 'changed', diff }),
        current('c', { changeStatus: 'new' }),
        current('d', { success: false, statusCode: null, error: 'connection refused' }),
        current('e', { statusCode: 500, changeStatus: 'changed' }),
      ],
      [previous('a'), previous('b'), previous('d'), previous('e', 'changed'), previous('gone'), previous('gone-before', 'removed')],
    );
    expect(rows.map((r) => [r.urlKey, r.status])).toEqual([
      ['a', 'same'],
      ['b', 'changed'],
      ['c', 'new'],
      ['d', 'error'],
      ['e', 'error'],
      ['gone', 'removed'],
    ]);
    expect(rows.find((r) => r.urlKey === 'b')).toMatchObject({ diff, previousScrapeId: OLD_JOB, currentScrapeId: JOB });
    expect(rows.find((r) => r.urlKey === 'c')).toMatchObject({ previousScrapeId: null, diff: null });
    expect(rows.find((r) => r.urlKey === 'd')?.error).toBe('connection refused');
    expect(rows.find((r) => r.urlKey === 'e')?.error).toBe('HTTP 500');
    expect(rows.find((r) => r.urlKey === 'gone')).toMatchObject({ previousScrapeId: OLD_JOB, currentScrapeId: null, statusCode: null });
    expect(summarise(rows)).toEqual({ totalPages: 6, same: 1, changed: 1, new: 1, removed: 1, error: 2 });
  });

  it('keys pages by target and URL: the same URL under two targets is two pages, a URL listed twice is one', () => {
    const rows = checkPageRows([current('a'), current('a'), current('a', { targetId: 'u', changeStatus: 'new' })], [previous('a')]);
    expect(rows.map((r) => [r.targetId, r.status])).toEqual([
      ['t', 'same'],
      ['u', 'new'],
    ]);
  });

  it('calls a page without a change-tracking result new, and the json mode diff is the field diff', () => {
    const fields = { price: { previous: 9, current: 12 } };
    const rows = checkPageRows([current('a', { changeStatus: undefined }), current('b', { changeStatus: 'changed', jsonDiff: fields })], []);
    expect(rows.map((r) => r.status)).toEqual(['new', 'changed']);
    expect(rows[1].diff).toEqual({ json: fields });
  });
});
