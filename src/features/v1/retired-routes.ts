// v1 routes upstream retired and this service does not offer: deep research (its
// successor is /v2/search) and llms.txt generation ("will not be replaced"). Their
// POST is a 410 that names the successor, so a client learns why; their status
// route answers upstream's 404 for the job it cannot have.
export interface RetiredRoute {
  path: string;
  refusal: string;
  replacement: string | null;
  statusNotFound: string;
}

export const RETIRED_ROUTES: RetiredRoute[] = [
  {
    path: '/deep-research',
    refusal: 'POST /v1/deep-research is not offered by this service (it is deprecated upstream): use POST /v2/search, with scrapeOptions to read the results.',
    replacement: '/v2/search',
    statusNotFound: 'Deep research job not found',
  },
  {
    path: '/llmstxt',
    refusal:
      'POST /v1/llmstxt is not offered by this service (upstream retired it without a replacement): POST /v2/map lists a site’s URLs, POST /v2/batch/scrape reads them.',
    replacement: null,
    statusNotFound: 'llmsTxt generation job not found',
  },
];
