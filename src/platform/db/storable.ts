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
 * JSON.stringify writes NUL as \u0000 and a lone surrogate as \udXXX, and never escapes
 * anything else this way (a valid pair is written as it is). So in its output every such
 * escape not itself escaped (preceded by an even run of backslashes) is one to clean.
 */
const UNSTORABLE_ESCAPE = /(?<!\\)((?:\\\\)*)\\u(0000|d[89a-f][0-9a-f]{2})/gi;

/** Whether PostgreSQL can store the text as it is (no NUL, no lone surrogate). */
export function isStorableText(text: string): boolean {
  if (!MAYBE_UNSTORABLE.test(text)) return true;
  UNSTORABLE.lastIndex = 0;
  return !UNSTORABLE.test(text);
}

export function storableText(text: string): string {
  if (!MAYBE_UNSTORABLE.test(text)) return text;
  return text.replace(UNSTORABLE, (c) => (c === '\u0000' ? '' : '\uFFFD'));
}

/**
 * `value` with every string (keys included) made storable, and its JSON text, whose UTF-8
 * length is the stored size. The cleaning is done on the JSON text, so it costs no JS stack
 * however deeply the value nests; a clean value (nearly every page) is returned as it is.
 */
export function storableJson<T>(value: T): { value: T; json: string } {
  const json = JSON.stringify(value);
  const clean = json.replace(UNSTORABLE_ESCAPE, (_escape, backslashes: string, code: string) => backslashes + (code === '0000' ? '' : '\\ufffd'));
  return clean === json ? { value, json } : { value: JSON.parse(clean) as T, json: clean };
}

/**
 * `value` with every string in it made storable, for values of a known, shallow shape (an index
 * entry) that are not stored as JSON: arrays and plain objects are walked, anything else (a Date)
 * is kept as it is.
 */
export function storableFields<T>(value: T): T {
  if (typeof value === 'string') return storableText(value) as T;
  if (Array.isArray(value)) return value.map(storableFields) as T;
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, storableFields(v)])) as T;
  }
  return value;
}
