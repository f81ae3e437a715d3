// The search tool's input and output, declared where every feature can see them:
// the search feature publishes a tool of this shape and a feature that searches
// (monitors' search targets) calls it through `contractTool(tools, 'search')` with
// these types, never a schema or an answer shape of its own.
import { z } from 'zod';

/** Longest query POST /v2/search and the search tool take. */
export const MAX_SEARCH_QUERY_LENGTH = 500;
const MAX_TOOL_RESULTS = 100;

export const searchToolInput = z.strictObject({
  query: z.string().trim().min(1).max(MAX_SEARCH_QUERY_LENGTH),
  limit: z.int().min(1).max(MAX_TOOL_RESULTS).default(5),
  tbs: z.string().max(200).optional().describe('Time filter: qdr:h (past hour), qdr:d, qdr:w, qdr:m, qdr:y, optionally with a count (qdr:h6).'),
  includeDomains: z.array(z.string().max(253)).max(100).optional(),
  excludeDomains: z.array(z.string().max(253)).max(100).optional(),
});

export interface SearchToolOutput {
  results: { url: string; title?: string; description?: string }[];
  warning?: string;
}
