import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diffLines, type LineEdit } from '../../../src/page/change-tracking/line-diff.ts';

const before = (edits: LineEdit[]) => edits.filter((e) => e.op !== 'add').map((e) => e.line);
const after = (edits: LineEdit[]) => edits.filter((e) => e.op !== 'del').map((e) => e.line);
const changed = (edits: LineEdit[]) => edits.filter((e) => e.op !== 'equal').length;

/** The length of the longest common subsequence, by dynamic programming: the minimal edit count is n + m - 2·lcs. */
function lcs(a: string[], b: string[]): number {
  const row = new Array<number>(b.length + 1).fill(0);
  for (const x of a) {
    let diag = 0;
    for (let j = 1; j <= b.length; j++) {
      const up = row[j]!;
      row[j] = x === b[j - 1] ? diag + 1 : Math.max(row[j]!, row[j - 1]!);
      diag = up;
    }
  }
  return row[b.length]!;
}

describe('diffLines', () => {
  it('marks the removed and the added lines between the unchanged ones', () => {
    expect(diffLines(['a', 'b', 'c', 'd'], ['a', 'x', 'c', 'd', 'e'])).toEqual([
      { op: 'equal', line: 'a' },
      { op: 'del', line: 'b' },
      { op: 'add', line: 'x' },
      { op: 'equal', line: 'c' },
      { op: 'equal', line: 'd' },
      { op: 'add', line: 'e' },
    ]);
  });

  it('handles empty sides', () => {
    expect(diffLines([], [])).toEqual([]);
    expect(diffLines([], ['a'])).toEqual([{ op: 'add', line: 'a' }]);
    expect(diffLines(['a'], [])).toEqual([{ op: 'del', line: 'a' }]);
  });

  it('rebuilds both sides and needs no more edits than the shortest script', () => {
    const lines = fc.array(fc.constantFrom('a', 'b', 'c', 'd', ''), { maxLength: 30 });
    fc.assert(
      fc.property(lines, lines, (a, b) => {
        const edits = diffLines(a, b);
        expect(before(edits)).toEqual(a);
        expect(after(edits)).toEqual(b);
        expect(changed(edits)).toBe(a.length + b.length - 2 * lcs(a, b));
      }),
      { numRuns: 500 },
    );
  });

  it('past maxEdits still rebuilds both sides, replacing the differing middle as one block', () => {
    const a = ['head', '1', '2', '3', '4', 'tail'];
    const b = ['head', 'w', 'x', 'y', 'z', 'tail'];
    const edits = diffLines(a, b, 2);
    expect(before(edits)).toEqual(a);
    expect(after(edits)).toEqual(b);
    expect(edits.map((e) => e.op)).toEqual(['equal', 'del', 'del', 'del', 'del', 'add', 'add', 'add', 'add', 'equal']);
  });

  it('diffs two unrelated texts of 20,000 lines without an edit search beyond its bound', () => {
    const a = Array.from({ length: 20_000 }, (_, i) => `old line ${i}`);
    const b = Array.from({ length: 20_000 }, (_, i) => `new line ${i}`);
    const edits = diffLines(a, b, 1000);
    expect(changed(edits)).toBe(40_000);
    expect(after(edits)).toEqual(b);
  });
});
