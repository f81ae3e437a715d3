// The git-diff mode's diff: unified-diff text of the previous and the current
// markdown, with three lines of context, and the same hunks in the structure
// the `parse-diff` package gives (what firecrawl returns as `diff.json`).
import { diffLines, type LineEdit } from './line-diff.ts';

const CONTEXT_LINES = 3;
/** Names of the two sides in the `---`/`+++` header, and `from`/`to` of the structured form. */
const FROM = 'previous';
const TO = 'current';

export type DiffChange =
  | { type: 'normal'; normal: true; ln1: number; ln2: number; content: string }
  | { type: 'del'; del: true; ln: number; content: string }
  | { type: 'add'; add: true; ln: number; content: string };

export interface DiffChunk {
  /** The hunk's `@@ -a,b +c,d @@` line. */
  content: string;
  changes: DiffChange[];
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
}

export interface StructuredDiff {
  files: { from: string; to: string; chunks: DiffChunk[]; additions: number; deletions: number }[];
}

export interface UnifiedDiff {
  text: string;
  json: StructuredDiff;
}

/** A text's lines; a final newline ends the last line rather than starting an empty one. */
function linesOf(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** `start,count` as diff writes it: a count of 1 is left out, an empty side names the line before it. */
function range(start: number, count: number): string {
  if (count === 1) return `${start}`;
  return `${count === 0 ? start - 1 : start},${count}`;
}

interface Numbered {
  edit: LineEdit;
  /** Line numbers (1-based) the edit has on each side, or would have next. */
  ln1: number;
  ln2: number;
}

function numbered(edits: LineEdit[]): Numbered[] {
  let ln1 = 1;
  let ln2 = 1;
  return edits.map((edit) => {
    const n = { edit, ln1, ln2 };
    if (edit.op !== 'add') ln1++;
    if (edit.op !== 'del') ln2++;
    return n;
  });
}

/** Index ranges [from, to) of the edits each hunk shows: changes with their context, merged when contexts touch. */
function hunkRanges(edits: LineEdit[]): [number, number][] {
  const ranges: [number, number][] = [];
  edits.forEach((edit, i) => {
    if (edit.op === 'equal') return;
    const from = Math.max(0, i - CONTEXT_LINES);
    const to = Math.min(edits.length, i + CONTEXT_LINES + 1);
    const last = ranges[ranges.length - 1];
    if (last && from <= last[1]) last[1] = to;
    else ranges.push([from, to]);
  });
  return ranges;
}

function chunkOf(lines: Numbered[]): DiffChunk {
  const changes: DiffChange[] = lines.map(({ edit, ln1, ln2 }) => {
    if (edit.op === 'equal') return { type: 'normal', normal: true, ln1, ln2, content: ` ${edit.line}` };
    if (edit.op === 'del') return { type: 'del', del: true, ln: ln1, content: `-${edit.line}` };
    return { type: 'add', add: true, ln: ln2, content: `+${edit.line}` };
  });
  const oldLines = lines.filter((l) => l.edit.op !== 'add').length;
  const newLines = lines.filter((l) => l.edit.op !== 'del').length;
  const oldStart = lines[0]!.ln1;
  const newStart = lines[0]!.ln2;
  return {
    content: `@@ -${range(oldStart, oldLines)} +${range(newStart, newLines)} @@`,
    changes,
    oldStart: oldLines === 0 ? oldStart - 1 : oldStart,
    oldLines,
    newStart: newLines === 0 ? newStart - 1 : newStart,
    newLines,
  };
}

/** The diff of two texts; no hunks (and only the header) when they have the same lines. */
export function unifiedDiff(previous: string, current: string, maxEdits?: number): UnifiedDiff {
  const edits = numbered(diffLines(linesOf(previous), linesOf(current), maxEdits));
  const chunks = hunkRanges(edits.map((e) => e.edit)).map(([from, to]) => chunkOf(edits.slice(from, to)));
  const text = [`--- ${FROM}`, `+++ ${TO}`, ...chunks.flatMap((c) => [c.content, ...c.changes.map((ch) => ch.content)])].join('\n') + '\n';
  const additions = edits.filter((e) => e.edit.op === 'add').length;
  const deletions = edits.filter((e) => e.edit.op === 'del').length;
  return { text, json: { files: [{ from: FROM, to: TO, chunks, additions, deletions }] } };
}
