// The one reader of a crawl's stored options. The row keeps the request exactly
// as POST /v2/crawl validated it (defaults applied), with the extras a /v1 request
// adds, so this is the only place that turns the JSON column back into its type.
import type { JobOptions } from './crawl-request.ts';

export function crawlOptions(crawl: { options: unknown }): JobOptions {
  return crawl.options as JobOptions;
}
