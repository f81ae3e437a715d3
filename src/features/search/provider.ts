// What a search backend implements. The local PostgreSQL index, SearXNG and any
// later engine (OpenSearch) compile a SearchQuery into their own request; what they
// cannot express they list in `unhonoured`, and the search service post-filters
// those parts where the hit carries enough to decide (url, title, date, size) and
// reports the rest in `warning`.
import type { QueryFeature, SearchCategory, SearchQuery } from './search-query.ts';

export interface WebHit {
  url: string;
  title: string;
  description: string;
  category?: SearchCategory;
  /** Published or modified date the page declares, when known. */
  date?: Date;
}

export interface ImageHit {
  title: string;
  imageUrl: string;
  imageWidth?: number;
  imageHeight?: number;
  /** The page the image is on. */
  url: string;
}

export interface NewsHit {
  title: string;
  snippet: string;
  url: string;
  date?: Date;
  imageUrl?: string;
  category?: SearchCategory;
}

export interface ProviderHits {
  web?: WebHit[];
  images?: ImageHit[];
  news?: NewsHit[];
  /** Parts of the query this answer did not apply. */
  unhonoured: QueryFeature[];
  /** Operator-facing problems worth surfacing (unresponsive engines, partial answers). */
  warnings: string[];
}

export interface SearchContext {
  teamId: string;
  /** Aborted when the request's timeout is reached; a provider returns what it has or throws. */
  signal: AbortSignal;
}

export interface SearchProvider {
  /** Stable name, used in warnings and logs. */
  name: string;
  search(query: SearchQuery, ctx: SearchContext): Promise<ProviderHits>;
}
