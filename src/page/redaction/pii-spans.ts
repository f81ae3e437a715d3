// Where personal data sits in a text (spans found by the patterns and by the
// model's names), and the text with those spans replaced in the caller's style.

export const PII_ENTITIES = ['PERSON', 'EMAIL', 'PHONE', 'LOCATION', 'FINANCIAL', 'SECRET'] as const;
export type PiiEntity = (typeof PII_ENTITIES)[number];

export type ReplaceStyle = 'tag' | 'mask' | 'remove';

export interface PiiSpan {
  start: number;
  end: number;
  entity: PiiEntity;
}

/**
 * Spans sorted and made disjoint: overlapping ones become one span of the union, named by the
 * longest of them (a card number read as a phone number too is FINANCIAL).
 */
export function mergeSpans(spans: PiiSpan[]): PiiSpan[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: (PiiSpan & { longest: number })[] = [];
  for (const span of sorted) {
    const last = merged[merged.length - 1];
    if (last && span.start < last.end) {
      if (span.end - span.start > last.longest) {
        last.entity = span.entity;
        last.longest = span.end - span.start;
      }
      last.end = Math.max(last.end, span.end);
    } else merged.push({ ...span, longest: span.end - span.start });
  }
  return merged.map(({ start, end, entity }) => ({ start, end, entity }));
}

/** What stands for a span: `<EMAIL>` (written `&lt;EMAIL&gt;` inside HTML, where it would be a tag), `*` per character, or nothing. */
function replacement(text: string, span: PiiSpan, style: ReplaceStyle, html: boolean): string {
  if (style === 'remove') return '';
  if (style === 'mask') {
    let count = 0;
    // Per character as the reader sees it: a surrogate pair is one star.
    for (const _ of text.slice(span.start, span.end)) count++;
    return '*'.repeat(count);
  }
  return html ? `&lt;${span.entity}&gt;` : `<${span.entity}>`;
}

/** `text` with every span replaced; spans need not be sorted or disjoint. */
export function replaceSpans(text: string, spans: PiiSpan[], style: ReplaceStyle, html = false): string {
  if (spans.length === 0) return text;
  const parts: string[] = [];
  let at = 0;
  for (const span of mergeSpans(spans)) {
    parts.push(text.slice(at, span.start), replacement(text, span, style, html));
    at = span.end;
  }
  parts.push(text.slice(at));
  return parts.join('');
}
