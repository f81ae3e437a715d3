// SearXNG (https://docs.searxng.org) as a provider for the open web: one call per
// result page across the categories the request's sources need (general, images,
// news), with the query's operators forwarded in its text (the engines behind
// SearXNG read site:, filetype: and the like) and checked again on the results
// (post-filter.ts), tbs as time_range where SearXNG has one (day, week, month,
// year) and as a post-filter otherwise. The instance is the operator's
// configuration, trusted like the database: it is not behind the private-address
// guard (it commonly runs beside the service on a private network).
import { z } from 'zod';
import { RESEARCH_HOSTS } from '../../../page/index-entry/categories.ts';
import type { ImageHit, NewsHit, ProviderHits, SearchContext, SearchProvider, WebHit } from '../provider.ts';
import type { QueryFeature, SearchQuery } from '../search-query.ts';

export interface SearxngOptions {
  url: string;
  /** Engines to use (SearXNG's `engines` parameter), unset: the instance's defaults. */
  engines?: string;
  /** Largest answer read, in bytes. */
  maxResponseBytes: number;
  /** Result pages fetched at most per search (about 20 results each). */
  maxPages: number;
}

const CATEGORY_OF = { web: 'general', images: 'images', news: 'news' } as const;

/** Answers of every SearXNG release in use: `unresponsive_engines` as [name, reason] pairs or names, dates as publishedDate or pubdate. */
const resultSchema = z.looseObject({
  url: z.string().optional(),
  title: z.string().optional().catch(undefined),
  content: z.string().optional().catch(undefined),
  category: z.string().optional().catch(undefined),
  publishedDate: z.string().nullish().catch(undefined),
  pubdate: z.string().nullish().catch(undefined),
  img_src: z.string().optional().catch(undefined),
  thumbnail_src: z.string().optional().catch(undefined),
  thumbnail: z.string().optional().catch(undefined),
  resolution: z.string().nullish().catch(undefined),
  img_format: z.string().nullish().catch(undefined),
});
const answerSchema = z.looseObject({
  results: z.array(z.unknown()).catch([]),
  unresponsive_engines: z.array(z.union([z.tuple([z.string(), z.string()]).rest(z.unknown()), z.string(), z.array(z.unknown())])).catch([]),
});

export class SearxngError extends Error {}

/** "1920 x 1080", "800x600", "1024×768" as pixel sizes. */
export function parseResolution(text: string | null | undefined): { width: number; height: number } | undefined {
  const m = /(\d{1,5})\s*[x×]\s*(\d{1,5})/i.exec(text ?? '');
  return m ? { width: Number(m[1]), height: Number(m[2]) } : undefined;
}

const RANGES = { d: 'day', w: 'week', m: 'month', y: 'year' } as const;

/** SearXNG's time_range for qdr:d/w/m/y; anything else (hours, counts, custom ranges) is filtered afterwards. */
function timeRange(q: SearchQuery): { range?: string; exact: boolean } {
  if (!q.time.from && !q.time.to) return { exact: true };
  const preset = q.time.preset;
  if (preset && preset.count === 1 && preset.unit !== 'h') return { range: RANGES[preset.unit], exact: true };
  return { exact: false };
}

/** The query as SearXNG text: the user's words and operators, plus categories and domains as site: / filetype:. */
export function searxngText(q: SearchQuery): string {
  const parts = [q.raw.trim()];
  const sites = [
    ...(q.categories.includes('github') ? ['github.com'] : []),
    ...(q.categories.includes('research') ? RESEARCH_HOSTS : []),
    ...q.domains.include,
  ];
  if (sites.length === 1) parts.push(`site:${sites[0]}`);
  else if (sites.length > 1) parts.push(`(${sites.map((s) => `site:${s}`).join(' OR ')})`);
  if (q.categories.includes('pdf')) parts.push('filetype:pdf');
  for (const d of q.domains.exclude) parts.push(`-site:${d}`);
  return parts.filter(Boolean).join(' ');
}

async function readCapped(res: Response, max: number): Promise<string> {
  const reader = res.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      throw new SearxngError(`SearXNG answered more than ${max} bytes (SEARXNG_MAX_RESPONSE_BYTES)`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const dateOf = (r: z.infer<typeof resultSchema>) => {
  const text = r.publishedDate ?? r.pubdate;
  const time = text ? Date.parse(text) : NaN;
  return Number.isNaN(time) ? undefined : new Date(time);
};

export function createSearxngProvider(opts: SearxngOptions): SearchProvider {
  const base = opts.url.replace(/\/+$/, '');

  async function page(q: SearchQuery, ctx: SearchContext, pageno: number, range: string | undefined) {
    const params = new URLSearchParams({ q: searxngText(q), format: 'json', pageno: String(pageno) });
    params.set('categories', [...new Set(q.sources.map((s) => CATEGORY_OF[s]))].join(','));
    if (q.language) params.set('language', q.language);
    if (range) params.set('time_range', range);
    if (opts.engines) params.set('engines', opts.engines);
    const res = await fetch(`${base}/search?${params}`, { signal: ctx.signal, headers: { accept: 'application/json' }, redirect: 'error' });
    if (res.status === 403) {
      throw new SearxngError('SearXNG refused the JSON format (403): enable it on the instance, in settings.yml: search: formats: [html, json]');
    }
    if (!res.ok) throw new SearxngError(`SearXNG answered ${res.status}`);
    let answer;
    try {
      answer = answerSchema.parse(JSON.parse(await readCapped(res, opts.maxResponseBytes)));
    } catch (err) {
      if (err instanceof SearxngError) throw err;
      throw new SearxngError('SearXNG answered something that is not its JSON format');
    }
    return answer;
  }

  return {
    name: 'searxng',
    async search(q, ctx): Promise<ProviderHits> {
      const { range, exact } = timeRange(q);
      const unhonoured: QueryFeature[] = ['sites', 'domains', 'fileTypes', 'inUrl', 'inTitle', 'related', 'imageSize', 'largerThan', 'sortByDate', 'location'];
      if (!exact) unhonoured.push('time');
      const web: WebHit[] = [];
      const news: NewsHit[] = [];
      const images: ImageHit[] = [];
      const warnings: string[] = [];
      const pages = Math.min(opts.maxPages, Math.max(1, Math.ceil((q.limit * q.sources.length) / 20)));
      for (let pageno = 1; pageno <= pages; pageno++) {
        const answer = await page(q, ctx, pageno, range);
        for (const entry of answer.unresponsive_engines) {
          const [name, reason] = Array.isArray(entry) ? entry : [entry, undefined];
          const note = `engine ${String(name)} did not answer${reason ? ` (${String(reason)})` : ''}`;
          if (!warnings.includes(note)) warnings.push(note);
        }
        let added = 0;
        for (const raw of answer.results) {
          const parsed = resultSchema.safeParse(raw);
          if (!parsed.success || !parsed.data.url) continue;
          const r = parsed.data;
          const url = r.url!;
          const category = r.category ?? 'general';
          if (category === 'images' && q.sources.includes('images') && r.img_src) {
            const size = parseResolution(r.resolution);
            images.push({ title: r.title ?? '', imageUrl: r.img_src, url, ...(size && { imageWidth: size.width, imageHeight: size.height }) });
          } else if (category === 'news' && q.sources.includes('news')) {
            const date = dateOf(r);
            const image = r.thumbnail_src ?? r.thumbnail ?? r.img_src;
            news.push({ title: r.title ?? '', snippet: r.content ?? '', url, ...(date && { date }), ...(image && { imageUrl: image }) });
          } else if (category !== 'images' && category !== 'news' && q.sources.includes('web')) {
            const date = dateOf(r);
            web.push({ url, title: r.title ?? '', description: r.content ?? '', ...(date && { date }) });
          } else continue;
          added++;
        }
        if (added === 0) break;
      }
      return {
        ...(q.sources.includes('web') && { web }),
        ...(q.sources.includes('news') && { news }),
        ...(q.sources.includes('images') && { images }),
        unhonoured,
        warnings,
      };
    },
  };
}
