// Orders a map's links for its `search` term: links whose URL or title hold more
// of the term's words come first (whole term in the text counts most); links
// that match nothing keep their order after those that do. Linear in the
// number of links times the term's words.
import { z } from 'zod';

export const mapLinkSchema = z.object({ url: z.string(), title: z.string().optional(), description: z.string().optional() });
export type MapLink = z.infer<typeof mapLinkSchema>;

const MAX_WORDS = 16;

function words(text: string): string[] {
  return [
    ...new Set(
      text
        .toLowerCase()
        .split(/[^\p{L}\p{N}]+/u)
        .filter((w) => w.length > 0),
    ),
  ].slice(0, MAX_WORDS);
}

function haystack(link: MapLink): string {
  let url = link.url;
  try {
    url = decodeURIComponent(link.url);
  } catch {
    // A malformed escape stays as it is; the raw URL still matches.
  }
  return `${url} ${link.title ?? ''} ${link.description ?? ''}`.toLowerCase();
}

export function scoreLink(link: MapLink, search: string): number {
  const terms = words(search);
  if (terms.length === 0) return 0;
  const text = haystack(link);
  const phrase = search.trim().toLowerCase();
  let score = phrase.length > 0 && text.includes(phrase) ? terms.length : 0;
  for (const term of terms) if (text.includes(term)) score++;
  return score;
}

export function rankLinks(links: MapLink[], search: string | undefined): MapLink[] {
  if (!search?.trim()) return links;
  return links
    .map((link, i) => ({ link, i, score: scoreLink(link, search) }))
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .map((r) => r.link);
}
