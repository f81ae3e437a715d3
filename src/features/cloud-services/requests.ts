// What the SDKs send to the routes of the cloud services this service refuses
// (routes.ts): each request is validated as upstream validates it (a malformed one
// is a 400 naming the field, as anywhere else) before the refusal, and the
// schemas document the routes in the OpenAPI document. Bodies are strict; unknown
// query parameters are ignored, as on every other route.
import { z } from 'zod';
import { integration, origin } from '../../platform/http/common-schemas.ts';

const common = { origin, integration };

/** A query parameter the SDKs repeat per value (`authors=a&authors=b`). */
const repeated = z.union([z.string().max(1000), z.array(z.string().max(1000)).max(100)]);
/** A count in a query string. */
const count = (max: number) =>
  z.coerce.number({ error: 'must be a number' }).int('must be an integer').min(1, 'must be at least 1').max(max, `must be at most ${max}`);
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD');
const flag = z.enum(['true', 'false'], { error: 'must be true or false' });
const text = (field: string) =>
  z
    .string({ error: `${field} must be a string` })
    .trim()
    .min(1, `${field} cannot be empty`)
    .max(10_000);

/** GET /v2/search/research/papers: `research.searchPapers()`, `search_papers()`. */
export const searchPapersQuery = z.object({
  query: text('query'),
  k: count(500).optional(),
  authors: repeated.optional(),
  categories: repeated.optional(),
  from: day.optional(),
  to: day.optional(),
  ...common,
});

/** GET /v2/search/research/papers/{id}: `research.getPaper()`, `inspect_paper()` and, with a query, `read_paper()`. */
export const paperQuery = z
  .object({ query: text('query').optional(), k: count(50).optional(), ...common })
  .refine((q) => q.k === undefined || q.query !== undefined, { message: 'k is only valid together with query', path: ['k'] });

/** GET /v2/search/research/papers/{id}/similar: `research.similarPapers()`, `related_papers()`. */
export const similarPapersQuery = z.object({
  intent: text('intent'),
  mode: z.enum(['similar', 'citers', 'references']).optional(),
  k: count(500).optional(),
  rerank: flag.optional(),
  anchor: repeated.optional(),
  ...common,
});

/** GET /v2/search/research/github: `research.searchGithub()`, `search_github()`. */
export const githubSearchQuery = z.object({ query: text('query'), k: count(100).optional(), ...common });

export const paperParams = z.object({ id: z.string().min(1).max(1000).describe('A paperId, or a namespaced id such as doi:<doi>, pmid:<id>, arxiv:<id>.') });

const stars = z.int('must be an integer').min(0, 'must be at least 0');
const names = (max: number) => z.array(z.string().max(500)).max(max, `at most ${max}`);

/** POST /v2/search/developer: `developerSearch()`, `developer_search()`. */
export const developerSearchBody = z.strictObject({
  query: text('query'),
  k: z.int().min(1).max(100).optional(),
  passages: z.int().min(1).max(5).optional(),
  types: z
    .array(z.enum(['doc', 'issue', 'pull_request', 'readme']))
    .max(4)
    .optional(),
  repos: names(20).optional(),
  sources: names(20).optional(),
  language: z.string().min(1).max(100).optional(),
  topic: names(8).optional(),
  license: z.string().min(1).max(100).optional(),
  min_stars: stars.optional(),
  max_stars: stars.optional(),
  archived: z.boolean().optional(),
  fork: z.boolean().optional(),
  skills: z.literal('only').optional(),
  ...common,
});

/** POST /v2/search/gov: `gov_search()` (Python SDK). */
export const govSearchBody = z.strictObject({
  query: text('query'),
  k: z.int().min(1).max(100).optional(),
  jurisdiction: z.string().min(1).max(20).optional(),
  court: z.string().min(1).max(100).optional(),
  courtType: z
    .enum([
      'federal-supreme',
      'federal-appellate',
      'federal-district',
      'federal-bankruptcy',
      'federal-special',
      'military',
      'state-supreme',
      'state-appellate',
      'state-trial',
      'state-special',
      'state-attorney-general',
    ])
    .optional(),
  cites: z.string().min(1).max(500).optional(),
  domain: z.string().min(1).max(253).optional(),
  ...common,
});

const searchFeedbackFields = {
  rating: z.enum(['good', 'partial', 'bad'], { error: 'rating must be one of good, partial, bad' }),
  valuableSources: z
    .array(z.strictObject({ url: z.string().min(1).max(8192), reason: z.string().max(2000).optional() }))
    .max(100)
    .optional(),
  missingContent: z
    .array(z.strictObject({ topic: z.string().min(1).max(500), description: z.string().max(2000).optional() }))
    .max(100)
    .optional(),
  querySuggestions: z.string().max(2000).optional(),
  ...common,
};

/** POST /v2/search/{id}/feedback: `searchFeedback()` (JS SDK). */
export const searchFeedbackBody = z.strictObject(searchFeedbackFields);

/** POST /v2/feedback: `feedback()` (JS SDK). */
export const feedbackBody = z.strictObject({
  ...searchFeedbackFields,
  endpoint: z.enum(['search', 'scrape', 'parse', 'map'], { error: 'endpoint must be one of search, scrape, parse, map' }),
  jobId: z.string().min(1).max(100),
  issues: z.array(z.string().max(200)).max(50).optional(),
  tags: z.array(z.string().max(200)).max(50).optional(),
  note: z.string().max(10_000).optional(),
  url: z.string().max(8192).optional(),
  pageNumbers: z.array(z.int().min(1)).max(1000).optional(),
  metadata: z
    .record(z.string(), z.unknown())
    .refine((m) => JSON.stringify(m).length <= 8192, 'metadata must be 8 KB or smaller')
    .optional(),
});

const jobId = z.uuid('Invalid job ID format. Job ID must be a valid UUID.');

export const searchJobParams = z.object({ jobId: jobId.describe('The id of the search (its answer’s id).') });
