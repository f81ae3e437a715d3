// The shortest line edit script between two texts (Myers, "An O(ND) difference
// algorithm"), bounded: past `maxEdits` differing lines the middle that differs
// is given as one block removed and one added, so a page rewritten from top to
// bottom costs O((N+M)·maxEdits) and never blocks the event loop for long.

export type LineEdit = { op: 'equal'; line: string } | { op: 'del'; line: string } | { op: 'add'; line: string };

/** Lines are compared as numbers: each distinct line gets one id. */
function lineIds(a: string[], b: string[]): { a: Int32Array; b: Int32Array } {
  const ids = new Map<string, number>();
  const idOf = (line: string) => {
    let id = ids.get(line);
    if (id === undefined) ids.set(line, (id = ids.size));
    return id;
  };
  return { a: Int32Array.from(a, idOf), b: Int32Array.from(b, idOf) };
}

/**
 * Myers' greedy forward search; the path is rebuilt from the furthest-reaching x of every
 * diagonal, kept before each step. undefined when more than maxEdits edits are needed.
 */
function myers(a: Int32Array, b: Int32Array, n: number, m: number, maxEdits: number): LineEdit['op'][] | undefined {
  const max = Math.min(n + m, maxEdits);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    // Only diagonals -d..d are read at step d + 1: keep that slice.
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, n, m, d);
    }
  }
  return undefined;
}

function backtrack(trace: Int32Array[], n: number, m: number, edits: number): LineEdit['op'][] {
  const ops: LineEdit['op'][] = [];
  let x = n;
  let y = m;
  for (let d = edits; d > 0; d--) {
    // What step d started from: diagonal k of it at index k + d + 1.
    const v = trace[d]!;
    const at = (k: number) => v[k + d + 1]!;
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const prevK = down ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      ops.push('equal');
      x--;
      y--;
    }
    ops.push(down ? 'add' : 'del');
    x = prevX;
    y = prevY;
  }
  while (x > 0 && y > 0) {
    ops.push('equal');
    x--;
    y--;
  }
  return ops.reverse();
}

/** The edits that turn `a` into `b`: as few as possible up to `maxEdits`, correct beyond. */
export function diffLines(a: string[], b: string[], maxEdits = 1000): LineEdit[] {
  const ids = lineIds(a, b);
  // Common head and tail cost nothing to find and are most of a page that changed a little.
  let head = 0;
  while (head < a.length && head < b.length && ids.a[head] === ids.b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && ids.a[a.length - 1 - tail] === ids.b[b.length - 1 - tail]) tail++;
  const n = a.length - head - tail;
  const m = b.length - head - tail;
  const middleA = ids.a.subarray(head, head + n);
  const middleB = ids.b.subarray(head, head + m);
  const ops = myers(middleA, middleB, n, m, maxEdits) ?? [...Array<'del'>(n).fill('del'), ...Array<'add'>(m).fill('add')];
  const edits: LineEdit[] = a.slice(0, head).map((line) => ({ op: 'equal', line }));
  let i = head;
  let j = head;
  for (const op of ops) {
    if (op === 'equal') {
      edits.push({ op, line: a[i++]! });
      j++;
    } else if (op === 'del') edits.push({ op, line: a[i++]! });
    else edits.push({ op, line: b[j++]! });
  }
  for (const line of a.slice(a.length - tail)) edits.push({ op: 'equal', line });
  return edits;
}
