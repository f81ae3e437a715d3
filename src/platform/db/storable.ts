// What a crawled page sends is stored as text and jsonb, and PostgreSQL refuses
// two things any page can contain: U+0000 (text cannot hold it, jsonb refuses
// its \u0000 escape) and a lone UTF-16 surrogate (not a character at all; Prisma
// and jsonb both reject it). One refused value would fail the whole write, and
// with it the batch, on every retry. So everything from page content is passed
// through here first: NUL is dropped, a lone surrogate becomes U+FFFD.

const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** Cheap pre-check: without NUL or any surrogate there is nothing to replace. */
const MAYBE_UNSTORABLE = /[\u0000\uD800-\uDFFF]/;
/**
 * In JSON.stringify's output, NUL and lone surrogates are escapes (\u0000, \udXXX); valid
 * surrogate pairs are written as they are. An escaped backslash before "u0000" can match
 * too: then the slow path runs for nothing, which is harmless.
 */
const MAYBE_UNSTORABLE_JSON = /\\u(?:0000|d[89a-f])/i;

export function storableText(text: string): string {
  if (!MAYBE_UNSTORABLE.test(text)) return text;
  return text.replace(UNSTORABLE, (c) => (c === '\u0000' ? '' : '\uFFFD'));
}

/** Strings and object keys cleaned; runs inside JSON.parse, so nesting depth costs no JS stack. */
function revive(_key: string, value: unknown): unknown {
  if (typeof value === 'string') return storableText(value);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  if (!keys.some((k) => MAYBE_UNSTORABLE.test(k))) return value;
  return Object.fromEntries(keys.map((k) => [storableText(k), (value as Record<string, unknown>)[k]]));
}

/**
 * `value` with every string (keys included) made storable, and its JSON text, whose UTF-8
 * length is the stored size. A clean value (nearly every page) is returned as it is, after
 * one serialization that the caller needs for the size anyway.
 */
export function storableJson<T>(value: T): { value: T; json: string } {
  const json = JSON.stringify(value);
  if (!MAYBE_UNSTORABLE_JSON.test(json)) return { value, json };
  const clean = JSON.parse(json, revive) as T;
  return { value: clean, json: JSON.stringify(clean) };
}
