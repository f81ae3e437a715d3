// The offline `summary` format: the page's most representative sentences, in
// the order the page has them. A sentence scores by how frequent its words are
// across the page (words every sentence shares count for little), with a
// preference for sentences near the start, where pages say what they are about.
// Sentence and word boundaries come from Intl.Segmenter, so it works for any
// language the runtime knows, with no word lists beyond a short English one.

/** Text considered: a summary of the first 50,000 characters costs a few milliseconds. */
const MAX_INPUT_CHARS = 50_000;
const MAX_SENTENCES = 600;
const MIN_SENTENCE_CHARS = 25;
const MAX_SENTENCE_CHARS = 500;
/** The summary's length bound; a single long sentence may be cut at it. */
export const SUMMARY_MAX_CHARS = 600;
const SUMMARY_MAX_SENTENCES = 4;

const STOPWORDS = new Set(
  'a an and are as at be been but by can do for from had has have he her his how i if in into is it its may more most no not of on or our she so than that the their them then there these they this those to was we were what when where which while who will with you your'.split(
    ' ',
  ),
);

/** Markdown reduced to its prose: no code, images, link targets, tables' rules or emphasis marks. */
function prose(markdown: string): string {
  return markdown
    .slice(0, MAX_INPUT_CHARS)
    .replace(/```[\s\S]*?(```|$)/g, '\n')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+[.)])\s+/gm, '')
    .replace(/^\s*\|?[\s:|-]+\|?\s*$/gm, '\n')
    .replace(/[*_`~|]+/g, ' ');
}

function words(sentence: string, segmenter: Intl.Segmenter): string[] {
  const out: string[] = [];
  for (const s of segmenter.segment(sentence.toLowerCase())) {
    if (s.isWordLike && s.segment.length > 1 && !STOPWORDS.has(s.segment) && !/^\d+$/.test(s.segment)) out.push(s.segment);
  }
  return out;
}

/** Sentences of the text: paragraph and line breaks end a sentence too (menus, lists and headings have no full stops). */
function sentences(text: string, language: string | undefined): string[] {
  const segmenter = new Intl.Segmenter(language, { granularity: 'sentence' });
  const out: string[] = [];
  for (const block of text.split(/\n+/)) {
    for (const s of segmenter.segment(block)) {
      const sentence = s.segment.replace(/\s+/g, ' ').trim();
      if (sentence.length >= MIN_SENTENCE_CHARS && sentence.length <= MAX_SENTENCE_CHARS && /\p{L}.*\p{L}/u.test(sentence)) out.push(sentence);
      if (out.length >= MAX_SENTENCES) return out;
    }
  }
  return out;
}

/** The page's declared language when the runtime knows it; a malformed tag (the page wrote it) is no error. */
function localeOf(language: string | undefined): string | undefined {
  if (!language) return undefined;
  try {
    return Intl.Segmenter.supportedLocalesOf([language])[0];
  } catch {
    return undefined;
  }
}

export function extractiveSummary(markdown: string, language?: string): string {
  const locale = localeOf(language);
  const all = sentences(prose(markdown), locale);
  if (all.length === 0) return '';
  const wordSegmenter = new Intl.Segmenter(locale, { granularity: 'word' });
  const sentenceWords = all.map((s) => words(s, wordSegmenter));
  // Document frequency: a word in most sentences (boilerplate, the site's name) says little.
  const df = new Map<string, number>();
  const tf = new Map<string, number>();
  for (const ws of sentenceWords) {
    for (const w of ws) tf.set(w, (tf.get(w) ?? 0) + 1);
    for (const w of new Set(ws)) df.set(w, (df.get(w) ?? 0) + 1);
  }
  const weight = (w: string) => Math.log(1 + tf.get(w)!) * Math.log(1 + all.length / df.get(w)!);
  const seen = new Set<string>();
  const scored = all.map((sentence, i) => {
    const ws = sentenceWords[i];
    const unique = new Set(ws);
    let sum = 0;
    for (const w of unique) sum += weight(w);
    const position = 1 + 1 / (1 + i / 3);
    // The same sentence repeated (a footer on every block) is taken once.
    const duplicate = seen.has(sentence);
    seen.add(sentence);
    return { i, sentence, score: duplicate || unique.size === 0 ? -1 : (sum / Math.sqrt(unique.size + 1)) * position };
  });
  const chosen: typeof scored = [];
  let length = 0;
  for (const s of [...scored].sort((a, b) => b.score - a.score || a.i - b.i)) {
    if (s.score < 0 || chosen.length >= SUMMARY_MAX_SENTENCES) break;
    if (chosen.length > 0 && length + s.sentence.length + 1 > SUMMARY_MAX_CHARS) continue;
    chosen.push(s);
    length += s.sentence.length + 1;
  }
  const summary = chosen
    .sort((a, b) => a.i - b.i)
    .map((s) => s.sentence)
    .join(' ');
  return summary.length > SUMMARY_MAX_CHARS ? `${summary.slice(0, SUMMARY_MAX_CHARS - 1).trimEnd()}…` : summary;
}
