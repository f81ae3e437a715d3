import { describe, expect, it } from 'vitest';
import { compilePathPattern, MAX_PATH_PATTERNS_SIZE, patternProblem, patternSize } from '../../../src/jobs/frontier/path-patterns.ts';

const RE2_NOTE = 'is not supported; patterns run on a linear-time engine (RE2 syntax)';

describe('compilePathPattern', () => {
  it('searches unanchored and case-sensitively, as new RegExp(p).test did', () => {
    const blog = compilePathPattern('blog/');
    expect(blog.test('/en/blog/post')).toBe(true);
    expect(blog.test('/en/Blog/post')).toBe(false);
    const anchored = compilePathPattern('^/docs/(guides|api)/[a-z-]+$');
    expect(anchored.test('/docs/api/get-crawl')).toBe(true);
    expect(anchored.test('/x/docs/api/get-crawl')).toBe(false);
    // `$` is the end of the subject only, as in JavaScript without the m flag.
    expect(compilePathPattern('x$').test('/x\n')).toBe(false);
  });

  it('accepts the RE2 forms of common JavaScript constructs', () => {
    expect(compilePathPattern('^\\/blog\\/(?<slug>[\\w-]+)$').test('/blog/hello-world')).toBe(true);
    expect(compilePathPattern('^/(?P<year>\\d{4})/').test('/2024/05/')).toBe(true);
    expect(compilePathPattern('(?i)^/blog').test('/BLOG')).toBe(true);
    expect(compilePathPattern('caf\\x{e9}').test('/café')).toBe(true);
  });

  it('matches a catastrophic-backtracking pattern in linear time', () => {
    const evil = compilePathPattern('^/(a+)+$');
    const started = performance.now();
    expect(evil.test(`/${'a'.repeat(40)}!`)).toBe(false);
    expect(evil.test(`/${'a'.repeat(40)}`)).toBe(true);
    expect(performance.now() - started).toBeLessThan(100);
  });

  it('names the construct of a stored pattern RE2 cannot run', () => {
    expect(() => compilePathPattern('^/(?=a)')).toThrow(`Path pattern "^/(?=a)" cannot run: lookahead (?=...) ${RE2_NOTE}`);
  });
});

describe('patternProblem', () => {
  it.each([
    ['^/(?=a)', 'lookahead (?=...)'],
    ['^/(?!private)', 'negative lookahead (?!...)'],
    ['(?<=/)a', 'lookbehind (?<=...)'],
    ['(?<!/)a', 'negative lookbehind (?<!...)'],
    ['/docs/(\\w+)/\\1', 'backreference \\1'],
    ['(?<n>a)\\k<n>', 'named backreference \\k<name>'],
    ['^/a++', 'possessive quantifier ++'],
    ['^/a{2}+', 'possessive quantifier {2}+'],
    ['(?>a|ab)c', 'atomic group (?>...)'],
    ['(a|b(?R))', 'recursion (?R)'],
    ['\\u00e9', '\\u escape (write \\x{hhhh})'],
    ['a\\Z', '\\Z (write \\z or $)'],
  ])('names the construct of %s', (pattern, construct) => {
    expect(patternProblem(pattern)).toBe(`${construct} ${RE2_NOTE}`);
  });

  it('passes on RE2 syntax errors that are no unsupported construct', () => {
    expect(patternProblem('(unclosed')).toBe('missing closing ): `(unclosed` (patterns run on a linear-time engine (RE2 syntax))');
    expect(patternProblem('[z-a]')).toMatch(/^invalid character class range/);
  });

  it('accepts valid RE2 patterns', () => {
    for (const p of ['', '^/blog/', '\\.pdf$', '^/(a+)+$', '[[:alpha:]]+', '\\pL', '(?s).']) expect(patternProblem(p)).toBeUndefined();
  });
});

describe('patternSize', () => {
  it('counts characters, classes and escapes once and multiplies counted repetitions', () => {
    expect(patternSize('^/blog/')).toBe(7);
    expect(patternSize('[a-z0-9]{1,100}')).toBe(100);
    expect(patternSize('(?:ab){3}c')).toBe(7);
    expect(patternSize('((a{10}){10})')).toBe(100);
    expect(patternSize('\\d{4}-\\x{41}*')).toBe(6);
    expect(patternSize('(?P<slug>x)|y')).toBe(2);
    expect(patternSize('\\Q{100}\\E')).toBe(5);
    expect(patternSize('a{,5}')).toBe(5);
  });

  it('puts patterns that would expand to a million instructions far over the limit', () => {
    expect(patternSize('(?:.{1000}){1000}')).toBeGreaterThan(MAX_PATH_PATTERNS_SIZE);
    expect(patternSize('.{1000}'.repeat(285))).toBeGreaterThan(MAX_PATH_PATTERNS_SIZE);
  });
});
