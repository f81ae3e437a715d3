// What a provider could not honour, applied to its hits where a hit carries
// enough to decide: the URL (site:, domains, filetype:, inurl:), the title
// (intitle:), the date (time ranges, newest first) and the image size
// (imagesize:, larger:). Hits that cannot be decided (no date, no size) are left
// out and counted; parts no hit can decide (related:) are reported.
import { within } from '../../page/index-entry/categories.ts';
import type { ImageHit, NewsHit, ProviderHits, WebHit } from './provider.ts';
import type { QueryFeature, SearchQuery } from './search-query.ts';

const hostOf = (url: string) =>
  URL.parse(url)
    ?.hostname.toLowerCase()
    .replace(/^www\./, '') ?? '';
const pathOf = (url: string) => URL.parse(url)?.pathname ?? '';
const extOf = (url: string) => /\.([a-z0-9]{1,10})$/i.exec(pathOf(url))?.[1]?.toLowerCase();

function siteHolds(site: string, url: string): boolean {
  const [host, ...rest] = site.replace(/^www\./, '').split('/');
  return within(hostOf(url), host) && (rest.length === 0 || pathOf(url).startsWith(`/${rest.join('/')}`));
}

function urlHolds(q: SearchQuery, url: string, features: Set<QueryFeature>): boolean {
  if (features.has('sites')) {
    if (q.sites.include.length && !q.sites.include.some((s) => siteHolds(s, url))) return false;
    if (q.sites.exclude.some((s) => siteHolds(s, url))) return false;
  }
  if (features.has('domains')) {
    if (q.domains.include.length && !q.domains.include.some((d) => siteHolds(d, url))) return false;
    if (q.domains.exclude.some((d) => siteHolds(d, url))) return false;
  }
  if (features.has('fileTypes')) {
    const ext = extOf(url);
    if (q.fileTypes.include.length && !(ext && q.fileTypes.include.includes(ext))) return false;
    if (ext && q.fileTypes.exclude.includes(ext)) return false;
  }
  if (features.has('inUrl')) {
    const lower = url.toLowerCase();
    if (!q.inUrl.include.every((w) => lower.includes(w)) || q.inUrl.exclude.some((w) => lower.includes(w))) return false;
  }
  return true;
}

function titleHolds(q: SearchQuery, title: string, features: Set<QueryFeature>): boolean {
  if (!features.has('inTitle')) return true;
  const lower = title.toLowerCase();
  return q.inTitle.include.every((w) => lower.includes(w)) && !q.inTitle.exclude.some((w) => lower.includes(w));
}

export interface Filtered {
  hits: ProviderHits;
  warnings: string[];
}

export function postFilter(provider: string, q: SearchQuery, hits: ProviderHits): Filtered {
  const features = new Set(hits.unhonoured);
  const warnings: string[] = [];
  let undated = 0;
  let unsized = 0;
  const inTime = (date: Date | undefined) => {
    if (!features.has('time') || (!q.time.from && !q.time.to)) return true;
    if (!date) {
      undated++;
      return false;
    }
    return (!q.time.from || date >= q.time.from) && (!q.time.to || date <= q.time.to);
  };
  const byDate = <T extends { date?: Date }>(list: T[]) =>
    features.has('sortByDate') && q.time.sortByDate ? list.toSorted((a, b) => (b.date?.getTime() ?? -Infinity) - (a.date?.getTime() ?? -Infinity)) : list;
  const web = hits.web && byDate(hits.web.filter((h: WebHit) => urlHolds(q, h.url, features) && titleHolds(q, h.title, features) && inTime(h.date)));
  const news = hits.news && byDate(hits.news.filter((h: NewsHit) => urlHolds(q, h.url, features) && titleHolds(q, h.title, features) && inTime(h.date)));
  const sized = (h: ImageHit) => {
    if (!(features.has('imageSize') && q.imageSize) && !(features.has('largerThan') && q.largerThan)) return true;
    if (h.imageWidth === undefined || h.imageHeight === undefined) {
      unsized++;
      return false;
    }
    if (q.imageSize && features.has('imageSize') && (h.imageWidth !== q.imageSize.width || h.imageHeight !== q.imageSize.height)) return false;
    if (q.largerThan && features.has('largerThan') && (h.imageWidth < q.largerThan.width || h.imageHeight < q.largerThan.height)) return false;
    return true;
  };
  const images = hits.images?.filter((h) => urlHolds(q, h.url, features) && sized(h));
  if (undated) warnings.push(`${undated} results without a date were left out of the time range`);
  if (unsized) warnings.push(`${unsized} images without a known size were left out`);
  if (features.has('related') && q.related) warnings.push(`related: is not supported by ${provider} and was ignored`);
  if (features.has('location') && q.location) warnings.push(`location is not supported by ${provider} (only the language is passed)`);
  return { hits: { ...hits, web, news, images }, warnings };
}
