import { describe, expect, it } from 'vitest';
import { unifiedDiff } from '../../../src/page/change-tracking/unified-diff.ts';

const lines = (n: number, at = 1) => Array.from({ length: n }, (_, i) => `line ${i + at}`);

describe('unifiedDiff', () => {
  it('writes a standard unified diff with three lines of context and its parse-diff structure', () => {
    const previous = [...lines(10), ''].join('\n');
    const current = previous.replace('line 5\n', 'line five\n');
    const diff = unifiedDiff(previous, current);
    expect(diff.text).toBe(
      ['--- previous', '+++ current', '@@ -2,7 +2,7 @@', ' line 2', ' line 3', ' line 4', '-line 5', '+line five', ' line 6', ' line 7', ' line 8', ''].join(
        '\n',
      ),
    );
    expect(diff.json).toEqual({
      files: [
        {
          from: 'previous',
          to: 'current',
          additions: 1,
          deletions: 1,
          chunks: [
            {
              content: '@@ -2,7 +2,7 @@',
              oldStart: 2,
              oldLines: 7,
              newStart: 2,
              newLines: 7,
              changes: [
                { type: 'normal', normal: true, ln1: 2, ln2: 2, content: ' line 2' },
                { type: 'normal', normal: true, ln1: 3, ln2: 3, content: ' line 3' },
                { type: 'normal', normal: true, ln1: 4, ln2: 4, content: ' line 4' },
                { type: 'del', del: true, ln: 5, content: '-line 5' },
                { type: 'add', add: true, ln: 5, content: '+line five' },
                { type: 'normal', normal: true, ln1: 6, ln2: 6, content: ' line 6' },
                { type: 'normal', normal: true, ln1: 7, ln2: 7, content: ' line 7' },
                { type: 'normal', normal: true, ln1: 8, ln2: 8, content: ' line 8' },
              ],
            },
          ],
        },
      ],
    });
  });

  it('splits changes more than six unchanged lines apart into hunks, and merges closer ones', () => {
    const previous = lines(30).join('\n');
    const apart = previous.replace('line 3', 'line III').replace('line 20', 'line XX');
    expect(unifiedDiff(previous, apart).json.files[0]!.chunks.map((c) => c.content)).toEqual(['@@ -1,6 +1,6 @@', '@@ -17,7 +17,7 @@']);
    const close = previous.replace('line 3', 'line III').replace('line 10', 'line X');
    expect(unifiedDiff(previous, close).json.files[0]!.chunks.map((c) => c.content)).toEqual(['@@ -1,13 +1,13 @@']);
  });

  it('names an empty side by the line before it and leaves out a count of one', () => {
    expect(unifiedDiff('', 'only\n').text).toBe('--- previous\n+++ current\n@@ -0,0 +1 @@\n+only\n');
    expect(unifiedDiff('a\nb\nc\nd\ne', 'a\nb\nc\nd\ne\nf').text).toBe('--- previous\n+++ current\n@@ -3,3 +3,4 @@\n c\n d\n e\n+f\n');
    const removed = unifiedDiff('gone', '');
    expect(removed.text).toBe('--- previous\n+++ current\n@@ -1 +0,0 @@\n-gone\n');
    expect(removed.json.files[0]!.chunks[0]).toMatchObject({ oldStart: 1, oldLines: 1, newStart: 0, newLines: 0 });
  });

  it('has no hunk when only the final newline differs', () => {
    expect(unifiedDiff('a\nb', 'a\nb\n').json.files[0]!.chunks).toEqual([]);
  });
});
