// POST /v2/scrape with `alexandria` calls instead of a URL: the SDKs' scrape({ alexandria }),
// scrape_alexandria() and findTools() / find_tools(), which run capabilities of the
// Alexandria exchange, a Firecrawl cloud service. Validated as upstream validates it
// (a malformed call is a 400 naming the field), then refused (routes.ts).
import { z } from 'zod';
import { integration, origin } from '../../platform/http/common-schemas.ts';

/** Calls per request, as upstream and both SDKs allow. */
const MAX_CALLS = 10;

const call = z.strictObject({
  provider: z.string({ error: 'provider must be a string' }).trim().min(1, 'provider cannot be empty').max(200),
  capability: z.string({ error: 'capability must be a string' }).trim().min(1, 'capability cannot be empty').max(200),
  options: z.record(z.string(), z.unknown()).optional(),
});

export const alexandriaScrapeRequestSchema = z.strictObject({
  alexandria: z.union([call, z.array(call).min(1, 'alexandria needs at least one call').max(MAX_CALLS, `alexandria takes at most ${MAX_CALLS} calls`)]),
  timeout: z.int({ error: 'timeout must be an integer number of milliseconds' }).min(1, 'timeout must be positive').optional(),
  origin,
  integration,
});

/** A body that asks for exchange calls (any body with an `alexandria` key, so a malformed one gets its own 400). */
export function isAlexandriaRequest(body: unknown): boolean {
  return typeof body === 'object' && body !== null && !Array.isArray(body) && Object.hasOwn(body, 'alexandria');
}
