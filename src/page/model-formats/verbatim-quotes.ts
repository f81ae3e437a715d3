// Quotes a model says it copied from a page are checked against the page: one
// that is not the page's own words is dropped, however plausible. The
// comparison ignores whitespace and markdown's emphasis marks (* _ `), which the
// page's markdown has and a model quoting its text tends to leave out.

function comparable(text: string): string {
  return text.replace(/[*_`]/g, '').replace(/\s+/g, ' ').trim();
}

export interface CheckedQuotes {
  /** The quotes found in the page, whitespace squashed, each once, in the model's order. */
  kept: string[];
  /** How many non-empty quotes were not found in the page. */
  dropped: number;
}

/** `page` is the text the model was given (bounded by LLM_MAX_INPUT_CHARS), so each search is bounded too. */
export function verbatimQuotes(quotes: readonly string[], page: string, max: number): CheckedQuotes {
  const haystack = comparable(page);
  const kept: string[] = [];
  const seen = new Set<string>();
  let dropped = 0;
  for (const quote of quotes) {
    const needle = comparable(quote);
    if (needle === '' || seen.has(needle)) continue;
    seen.add(needle);
    if (!haystack.includes(needle)) {
      dropped++;
      continue;
    }
    if (kept.length < max) kept.push(quote.replace(/\s+/g, ' ').trim());
  }
  return { kept, dropped };
}
