import { describe, expect, it } from 'vitest';
import { storableFields, storableJson, storableText } from '../../../src/platform/db/storable.ts';

const HIGH = '\uD83D';
const LOW = '\uDE00';
const EMOJI = HIGH + LOW; // 😀, a valid pair

describe('storableText', () => {
  it('drops NUL and replaces lone surrogates with U+FFFD', () => {
    expect(storableText('a\u0000b\u0000')).toBe('ab');
    expect(storableText(`x${HIGH}y`)).toBe('x\uFFFDy');
    expect(storableText(`x${LOW}y`)).toBe('x\uFFFDy');
    expect(storableText(`${LOW}${HIGH}`)).toBe('\uFFFD\uFFFD');
    expect(storableText(`end${HIGH}`)).toBe('end\uFFFD');
  });

  it('keeps valid surrogate pairs and everything else as it is', () => {
    expect(storableText(`${EMOJI} é € \u0001 \uFFFF`)).toBe(`${EMOJI} é € \u0001 \uFFFF`);
    expect(storableText(`${HIGH}${EMOJI}\u0000${EMOJI}${LOW}`)).toBe(`\uFFFD${EMOJI}${EMOJI}\uFFFD`);
  });

  it('gives strings that encode to UTF-8 and back unchanged, with no NUL', () => {
    const samples = ['\u0000', HIGH, LOW, `${LOW}${HIGH}${LOW}`, `a${EMOJI}${HIGH}\u0000b`];
    for (const s of samples) {
      const clean = storableText(s);
      expect(clean.includes('\u0000')).toBe(false);
      expect(Buffer.from(clean, 'utf8').toString('utf8')).toBe(clean);
    }
  });
});

describe('storableJson', () => {
  it('cleans every string and key, however deep', () => {
    const doc = {
      markdown: `# T\u0000itle ${HIGH}`,
      links: [`http://a.test/${LOW}`],
      metadata: { [`na\u0000me`]: `v${HIGH}`, nested: [[{ deep: 'a\u0000' }]], statusCode: 200, ok: true, none: null },
    };
    const { value, json } = storableJson(doc);
    expect(value).toEqual({
      markdown: '# Title \uFFFD',
      links: ['http://a.test/\uFFFD'],
      metadata: { name: 'v\uFFFD', nested: [[{ deep: 'a' }]], statusCode: 200, ok: true, none: null },
    });
    expect(JSON.parse(json)).toEqual(value);
    expect(json).not.toMatch(/\\u0000|\\ud[89a-f]/i);
  });

  it('returns a clean value as it is, with its JSON', () => {
    const doc = { markdown: `héllo € ${EMOJI}`, metadata: { title: 'T' } };
    const { value, json } = storableJson(doc);
    expect(value).toBe(doc);
    expect(json).toBe(JSON.stringify(doc));
  });

  it('keeps the text "\\u0000" (a backslash, u and four digits), which is not a NUL', () => {
    const doc = { metadata: { title: 'a\\u0000b \\ud800' } };
    expect(storableJson(doc).value).toEqual(doc);
  });

  it('tells a real NUL or surrogate after a literal backslash from an escaped backslash', () => {
    expect(storableJson({ s: `a\\\u0000b\\${HIGH}c` }).value).toEqual({ s: 'a\\b\\\uFFFDc' });
  });

  it('cleans values nested deeper than a recursive walk could go', () => {
    const depth = 1500;
    const deep = JSON.parse(`${'['.repeat(depth)}"\\u0000x"${']'.repeat(depth)}`);
    const { json } = storableJson(deep);
    expect(json).toBe(`${'['.repeat(depth)}"x"${']'.repeat(depth)}`);
  });
});

describe('storableFields', () => {
  it('cleans every string of an entry, in arrays and objects, and keeps a Date a Date', () => {
    const published = new Date('2026-01-02T00:00:00Z');
    const entry = { title: `a\u0000b${HIGH}`, publishedAt: published, outbound: [`x${LOW}`], images: [{ alt: `\u0000${HIGH}${LOW}`, width: 3 }], none: null };
    const clean = storableFields(entry);
    expect(clean).toEqual({ title: 'ab\uFFFD', publishedAt: published, outbound: ['x\uFFFD'], images: [{ alt: `${HIGH}${LOW}`, width: 3 }], none: null });
    expect(clean.publishedAt).toBeInstanceOf(Date);
  });
});
