// A page's language picks the PostgreSQL text-search configuration its words are
// stemmed with (the Snowball stemmers PostgreSQL ships); any other language, or
// none, is indexed with 'simple' (words as written, lower-cased).
export const TEXT_SEARCH_CONFIGS: Record<string, string> = {
  ar: 'arabic',
  ca: 'catalan',
  da: 'danish',
  de: 'german',
  el: 'greek',
  en: 'english',
  es: 'spanish',
  eu: 'basque',
  fi: 'finnish',
  fr: 'french',
  ga: 'irish',
  hi: 'hindi',
  hu: 'hungarian',
  hy: 'armenian',
  id: 'indonesian',
  it: 'italian',
  lt: 'lithuanian',
  ne: 'nepali',
  nl: 'dutch',
  no: 'norwegian',
  nb: 'norwegian',
  nn: 'norwegian',
  pt: 'portuguese',
  ro: 'romanian',
  ru: 'russian',
  sr: 'serbian',
  sv: 'swedish',
  ta: 'tamil',
  tr: 'turkish',
  yi: 'yiddish',
};

/** The configuration for a BCP 47 tag ("en-GB" -> english), 'simple' when there is none. */
export function textSearchConfig(lang: string | null | undefined): string {
  const primary = (lang ?? '').toLowerCase().split(/[-_]/)[0];
  return TEXT_SEARCH_CONFIGS[primary] ?? 'simple';
}
