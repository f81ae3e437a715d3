// The first key or string of a body that PostgreSQL could not store, found without recursion.
import { describe, expect, it } from 'vitest';
import { unstorablePath } from '../../../src/platform/http/unstorable-body.ts';

describe('unstorablePath', () => {
  it('names the first value or key holding U+0000 or a lone surrogate, in document order', () => {
    expect(unstorablePath({ url: 'http://a/', includePaths: ['ok', 'a\u0000'], z: '\u0000' })).toBe('includePaths.1');
    expect(unstorablePath({ webhook: { metadata: { ['k\uDC00']: 1 } } })).toBe('webhook.metadata.k\uDC00');
    expect(unstorablePath(['\uD800x'])).toBe('0');
    expect(unstorablePath('\u0000')).toBe('');
  });

  it('passes text PostgreSQL stores: emoji (surrogate pairs), the escape text "\\u0000", numbers and nulls', () => {
    expect(unstorablePath({ a: '😀', b: '\\u0000', c: [1, null, true, { d: 'é' }] })).toBeUndefined();
  });

  it('walks bodies nested deeper than any stack', () => {
    const deep = JSON.parse(`${'['.repeat(200_000)}"\\u0000"${']'.repeat(200_000)}`);
    expect(unstorablePath(deep)).toBe(Array(200_000).fill('0').join('.'));
  });
});
