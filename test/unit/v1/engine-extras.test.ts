// What the job engine and the job watcher do for /v1 jobs: the json result under the
// v1 format's field name, and the end of a watch repeated in the close frame's reason.
import { describe, expect, it } from 'vitest';
import { placeJsonResult } from '../../../src/jobs/json-fields.ts';
import { endCloseReason } from '../../../src/features/job-watch/watch-session.ts';

const metadata = { sourceURL: 'https://a.example/', url: 'https://a.example/', statusCode: 200 };

describe('placeJsonResult', () => {
  it('moves or copies the json result to the job’s fields, and leaves a document without one alone', () => {
    const doc = { markdown: '# x', json: { name: 'x' }, metadata };
    expect(placeJsonResult(doc, undefined)).toBe(doc);
    expect(placeJsonResult(doc, ['extract'])).toEqual({ markdown: '# x', extract: { name: 'x' }, metadata });
    expect(placeJsonResult(doc, ['json', 'extract'])).toEqual({ markdown: '# x', json: { name: 'x' }, extract: { name: 'x' }, metadata });
    const failed = { metadata: { ...metadata, error: 'boom' } };
    expect(placeJsonResult(failed, ['extract'])).toBe(failed);
  });
});

describe('endCloseReason', () => {
  it('repeats the end message within the 123 bytes a close reason may hold', () => {
    expect(endCloseReason({ type: 'done' })).toBe('{"type":"done"}');
    expect(JSON.parse(endCloseReason({ type: 'error', error: 'robots.txt disallows the start URL' }))).toEqual({
      type: 'error',
      error: 'robots.txt disallows the start URL',
    });
    for (const error of ['é'.repeat(500), 'x'.repeat(10_000), '"\\'.repeat(100), '🙂'.repeat(200)]) {
      const reason = endCloseReason({ type: 'error', error });
      expect(Buffer.byteLength(reason)).toBeLessThanOrEqual(123);
      const parsed = JSON.parse(reason) as { type: string; error: string };
      expect(parsed.type).toBe('error');
      expect(parsed.error.endsWith('…')).toBe(true);
      expect(error.startsWith(parsed.error.slice(0, -1))).toBe(true);
    }
  });
});
