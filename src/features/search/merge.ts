// Answers of several providers as one: per source, in the order of the configured
// providers (the first's hits first), each URL once (by the crawler's URL key:
// http/https, www., a trailing slash name one page), cut to the limit, with
// positions from 1.
import { urlKey } from '../../jobs/frontier/normalize-url.ts';
import type { ProviderHits } from './provider.ts';

type Positioned<T> = T & { position: number };

function sameUrlKey(url: string): string | undefined {
  try {
    return urlKey(url, { ignoreQueryParameters: false });
  } catch {
    return undefined;
  }
}

export function mergeSource<T extends { url: string; imageUrl?: string }>(
  lists: (T[] | undefined)[],
  limit: number,
  keyOf: (hit: T) => string = (h) => h.url,
): Positioned<T>[] {
  const seen = new Set<string>();
  const merged: Positioned<T>[] = [];
  for (const list of lists) {
    for (const hit of list ?? []) {
      if (merged.length >= limit) return merged;
      const key = sameUrlKey(keyOf(hit));
      if (!key || seen.has(key)) continue;
      seen.add(key);
      merged.push({ ...hit, position: merged.length + 1 });
    }
  }
  return merged;
}

export function mergeHits(answers: ProviderHits[], limit: number) {
  return {
    web: mergeSource(
      answers.map((a) => a.web),
      limit,
    ),
    news: mergeSource(
      answers.map((a) => a.news),
      limit,
    ),
    images: mergeSource(
      answers.map((a) => a.images),
      limit,
      (h) => h.imageUrl,
    ),
  };
}
