// The one structure a search request becomes. The query parser (query-parser.ts)
// turns `query` plus the request fields into a SearchQuery; every provider compiles
// from it and returns the parts it could not honour (see provider.ts), which the
// search service applies as post-filters or reports in `warning`.
import type { SearchCategory } from '../../page/index-entry/categories.ts';

export type SearchSource = 'web' | 'images' | 'news';
export type { SearchCategory };

/** A bare word or a "quoted phrase" of the query text; phrases match as exact text. */
export interface TextTerm {
  kind: 'word' | 'phrase';
  text: string;
}

/** Terms that must appear and terms that must not (written with a leading minus). */
export interface Included<T> {
  include: T[];
  exclude: T[];
}

export interface Dimensions {
  width: number;
  height: number;
}

/** Time filter from `tbs`: qdr:h/d/w/m/y and cdr ranges become absolute bounds at parse time. */
export interface TimeFilter {
  from?: Date;
  to?: Date;
  /** sbd:1: newest first instead of by relevance. */
  sortByDate: boolean;
  /** The qdr range the bounds came from (qdr:d -> day, count 1), for providers with named ranges. */
  preset?: { unit: 'h' | 'd' | 'w' | 'm' | 'y'; count: number };
}

export interface SearchQuery {
  /** The raw query, for providers that forward text unchanged. */
  raw: string;
  terms: Included<TextTerm>;
  /** site: hostnames (a site matches the host and its subdomains), optionally with a path prefix. */
  sites: Included<string>;
  /** filetype: extensions, lower case, no dot. */
  fileTypes: Included<string>;
  /** inurl: and allinurl: words; every include must appear in the URL. */
  inUrl: Included<string>;
  /** intitle: and allintitle: words; every include must appear in the title. */
  inTitle: Included<string>;
  /** related: a domain; results are pages of domains sharing outbound links with it. */
  related?: string;
  /** imagesize:WxH, exact image dimensions (images source). */
  imageSize?: Dimensions;
  /** larger:WxH, images at least this large: width >= W and height >= H. */
  largerThan?: Dimensions;
  /** includeDomains / excludeDomains of the request (hostnames, lower case; subdomains match). */
  domains: Included<string>;
  time: TimeFilter;
  sources: SearchSource[];
  categories: SearchCategory[];
  /** Per source. */
  limit: number;
  /** Language and region preference: ISO country code (upper case) and free-text location. */
  country?: string;
  location?: string;
  /** BCP 47 language tag derived from country / request `lang`, e.g. "en". */
  language?: string;
  /** Descriptions (news: snippets) made of the passages of the page that match the query, where the provider has the page's text. */
  highlights: boolean;
}

/** Names of SearchQuery parts, used by providers to declare what they cannot honour. */
export type QueryFeature =
  | 'terms'
  | 'phrases'
  | 'excludedTerms'
  | 'sites'
  | 'fileTypes'
  | 'inUrl'
  | 'inTitle'
  | 'related'
  | 'imageSize'
  | 'largerThan'
  | 'domains'
  | 'time'
  | 'sortByDate'
  | 'categories'
  | 'location';
