// Search as a tool for other features (the agent, monitors' search targets): POST
// /v2/search's own path, with its providers, its charge on the usage ledger and its
// credits, for one query, localized to the caller's location when it has one.
import { z } from 'zod';
import { defineTool, type Tool, type ToolDeps } from '../../platform/tools/tool.ts';
import { searchProviders } from './search-providers.ts';
import { MAX_QUERY_LENGTH, searchRequestSchema } from './search-request.ts';
import { runSearch } from './search-service.ts';
import { locationSettings } from '../../page/location.ts';
import type { SearchFeatureSettings } from './config.ts';

const MAX_TOOL_RESULTS = 100;

/** A caller's location as search's country and lang: the location's first language, else the country's own. */
function localeOf(location: { country: string; languages?: string[] }): { country: string; lang: string } {
  return { country: location.country, lang: locationSettings({ country: location.country, languages: location.languages }).locale };
}

export function searchTool(deps: ToolDeps<SearchFeatureSettings>): Tool {
  const providers = searchProviders(deps.db, deps.config);
  return defineTool({
    name: 'search',
    description: 'Search the web for a query; answers a list of results, each with url, title and description.',
    input: z.strictObject({
      query: z.string().trim().min(1).max(MAX_QUERY_LENGTH),
      limit: z.int().min(1).max(MAX_TOOL_RESULTS).default(5),
      tbs: z.string().max(200).optional().describe('Time filter: qdr:h (past hour), qdr:d, qdr:w, qdr:m, qdr:y, optionally with a count (qdr:h6).'),
      includeDomains: z.array(z.string().max(253)).max(100).optional(),
      excludeDomains: z.array(z.string().max(253)).max(100).optional(),
    }),
    async run(input, ctx) {
      const team = await deps.db.team.findUniqueOrThrow({ where: { id: ctx.teamId } });
      const request = searchRequestSchema.parse({ ...input, ...(ctx.location && localeOf(ctx.location)) });
      const answer = await runSearch(deps, providers, team, ctx.apiKeyId, request, { id: ctx.callId });
      const results = (answer.data.web ?? []).map(({ url, title, description }) => ({ url, title, description }));
      return { output: { results, ...(answer.warning && { warning: answer.warning }) }, credits: answer.creditsUsed };
    },
  });
}
