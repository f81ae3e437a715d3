// includePaths/excludePaths come from API callers and run on the worker's event
// loop against every discovered URL, so they run on RE2 (re2js): matching time is
// linear in the URL whatever the pattern. RE2 has no backtracking constructs;
// those are refused when the crawl is requested, naming the construct.
import { RE2JS, RE2JSException, RE2Set } from 're2js';

/**
 * Most "size" one list of patterns may have: every character, class or escape
 * counts 1 and a counted repetition multiplies what it repeats (`[a-z]{1,100}`
 * counts 100). Compiling, and matching on a URL, cost time in proportion to it:
 * a 2,000-character pattern can expand to a million RE2 instructions.
 */
export const MAX_PATH_PATTERNS_SIZE = 20_000;

export const RE2_NOTE = 'patterns run on a linear-time engine (RE2 syntax)';

export interface PathPattern {
  source: string;
  test(subject: string): boolean;
}

// RE2 reports the offending text after a code; these name what a JavaScript or
// PCRE author meant by it.
const GROUP_CONSTRUCTS: [prefix: string, name: string][] = [
  ['(?<=', 'lookbehind (?<=...)'],
  ['(?<!', 'negative lookbehind (?<!...)'],
  ['(?=', 'lookahead (?=...)'],
  ['(?!', 'negative lookahead (?!...)'],
  ['(?>', 'atomic group (?>...)'],
  ['(?#', 'comment group (?#...)'],
  ['(?|', 'branch reset group (?|...)'],
  ['(?P>', 'subroutine call (?P>name)'],
  ['(?&', 'subroutine call (?&name)'],
  ['(?R', 'recursion (?R)'],
  ['(?C', 'callout (?C...)'],
];

const ESCAPE_CONSTRUCTS: Record<string, string> = {
  k: 'named backreference \\k<name>',
  g: 'backreference \\g',
  u: '\\u escape (write \\x{hhhh})',
  c: 'control escape \\c (write \\x{hh})',
  Z: '\\Z (write \\z or $)',
  G: '\\G anchor',
  K: '\\K (match reset)',
  R: '\\R (line break escape)',
  X: '\\X (grapheme cluster escape)',
};

function constructOf(code: string, fragment: string): string | undefined {
  if (code === 'invalid or unsupported Perl syntax' || code === 'invalid named capture') {
    const known = GROUP_CONSTRUCTS.find(([prefix]) => fragment.startsWith(prefix));
    if (known) return known[1];
    if (/^\(\?[0-9+-]/.test(fragment)) return `recursion ${fragment}...)`;
    return undefined;
  }
  if (code === 'invalid escape sequence') {
    const letter = fragment[1] ?? '';
    if (/[1-9]/.test(letter)) return `backreference ${fragment}`;
    return ESCAPE_CONSTRUCTS[letter] ?? `escape ${fragment}`;
  }
  if (code === 'invalid nested repetition operator' && fragment.endsWith('+')) return `possessive quantifier ${fragment}`;
  return undefined;
}

/** RE2's refusal as a sentence naming the construct when it is one RE2 cannot run. */
function describeSyntaxError(err: RE2JSException): string {
  const message = err.message.replace(/^error parsing regexp: /, '');
  const m = /^(.*?): `(.*)`$/s.exec(message);
  const construct = m ? constructOf(m[1], m[2]) : undefined;
  return construct ? `${construct} is not supported; ${RE2_NOTE}` : `${message} (${RE2_NOTE})`;
}

/** Length of a counted repetition `{n}`, `{n,}` or `{n,m}` at `i`, with its bound, else undefined. */
function countedRepeat(p: string, i: number): { end: number; times: number } | undefined {
  const m = /^\{(\d+)(,(\d*))?\}/.exec(p.slice(i, i + 24));
  if (!m) return undefined;
  const min = Number(m[1]);
  const times = m[2] === undefined ? min : m[3] === '' ? min + 1 : Math.max(min, Number(m[3]));
  return { end: i + m[0].length, times };
}

/** Index just past the character class opening at `i` (RE2 syntax: `[]a]`, `[^]a]`, `[[:alpha:]]`). */
function classEnd(p: string, i: number): number {
  let j = i + 1;
  if (p[j] === '^') j++;
  if (p[j] === ']') j++;
  while (j < p.length && p[j] !== ']') {
    if (p[j] === '\\') j += 2;
    else if (p.startsWith('[:', j)) {
      const close = p.indexOf(':]', j + 2);
      j = close < 0 ? j + 1 : close + 2;
    } else j++;
  }
  return j + 1;
}

/** Index just past the escape at `i`: `\x{…}`, `\p{…}`, `\pL`, `\Q…\E`, or one character. */
function escapeEnd(p: string, i: number): number {
  const c = p[i + 1];
  if ((c === 'x' || c === 'p' || c === 'P') && p[i + 2] === '{') {
    const close = p.indexOf('}', i + 3);
    return close < 0 ? p.length : close + 1;
  }
  if (c === 'p' || c === 'P' || c === 'x') return Math.min(p.length, i + (c === 'x' ? 4 : 3));
  return Math.min(p.length, i + 2);
}

/** Index of the first character inside the group opening at `i`, past `?:`, `?P<name>`, `?<name>` or `?flags:`. */
function groupBodyStart(p: string, i: number): number {
  if (p[i + 1] !== '?') return i + 1;
  const named = /^\(\?P?<[^>]*>/.exec(p.slice(i, i + 40));
  if (named) return i + named[0].length;
  const flags = /^\(\?[a-zA-Z-]*:?/.exec(p.slice(i, i + 12));
  return i + (flags ? flags[0].length : 2);
}

/**
 * The size defined at MAX_PATH_PATTERNS_SIZE, computed in one pass without
 * compiling, so an oversized pattern costs nothing to refuse. `\Q…\E` counts
 * its characters. Approximate on malformed patterns, which RE2 refuses anyway.
 */
export function patternSize(p: string): number {
  // One frame per open group: its size so far and the size of its last atom.
  const frames = [{ total: 0, last: 0 }];
  const add = (n: number) => {
    const top = frames[frames.length - 1];
    top.total += n;
    top.last = n;
  };
  let i = 0;
  while (i < p.length) {
    const c = p[i];
    if (c === '\\' && p[i + 1] === 'Q') {
      const end = p.indexOf('\\E', i + 2);
      const stop = end < 0 ? p.length : end;
      add(stop - (i + 2));
      i = end < 0 ? p.length : end + 2;
    } else if (c === '\\') {
      const end = escapeEnd(p, i);
      add(1);
      i = end;
    } else if (c === '[') {
      add(1);
      i = classEnd(p, i);
    } else if (c === '(') {
      frames.push({ total: 0, last: 0 });
      i = groupBodyStart(p, i);
    } else if (c === ')') {
      const inner = frames.length > 1 ? frames.pop()!.total : 0;
      add(inner);
      i++;
    } else if (c === '|') {
      frames[frames.length - 1].last = 0;
      i++;
    } else if (c === '{' && countedRepeat(p, i)) {
      const { end, times } = countedRepeat(p, i)!;
      const top = frames[frames.length - 1];
      top.total += top.last * (times - 1);
      top.last *= times;
      i = end;
    } else if (c === '*' || c === '+' || c === '?') {
      i++;
    } else {
      add(1);
      i += c.codePointAt(0)! > 0xffff ? 2 : 1;
    }
  }
  return frames.reduce((sum, f) => sum + f.total, 0);
}

/**
 * Why RE2 refuses `source`, or undefined. Parses without compiling (a set's
 * `add` does only that), which is what a request can afford; check
 * patternSize first, as parsing expands counted repetitions.
 */
export function patternProblem(source: string): string | undefined {
  try {
    new RE2Set().add(source);
    return undefined;
  } catch (err) {
    if (err instanceof RE2JSException) return describeSyntaxError(err);
    throw err;
  }
}

/**
 * A pattern compiled for unanchored, case-sensitive search, as JavaScript's
 * `new RegExp(p).test` was. Requests are validated, so only a crawl stored
 * before patterns ran on RE2 can hold one that throws here.
 */
export function compilePathPattern(source: string): PathPattern {
  let re: RE2JS;
  try {
    re = RE2JS.compile(source);
  } catch (err) {
    if (err instanceof RE2JSException) throw new Error(`Path pattern "${source}" cannot run: ${describeSyntaxError(err)}`, { cause: err });
    throw err;
  }
  return { source, test: (subject) => re.test(subject) };
}
