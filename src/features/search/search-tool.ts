// Search as a tool for other features (the agent, monitors' search targets): POST
// /v2/search's own path, with its providers, its charge on the usage ledger and its
// credits, for one query, localized to the caller's location when it has one.
import { defineContractTool, type Tool, type ToolDeps } from '../../platform/tools/tool.ts';
import { searchToolInput } from '../../platform/tools/search-contract.ts';
import { searchProviders } from './search-providers.ts';
import { searchRequestSchema } from './search-request.ts';
import { runSearch } from './search-service.ts';
import { locationSettings } from '../../page/location.ts';
import type { SearchFeatureSettings } from './config.ts';

/** A caller's location as search's country and lang: the location's first language, else the country's own. */
function localeOf(location: { country: string; languages?: string[] }): { country: string; lang: string } {
  return { country: location.country, lang: locationSettings({ country: location.country, languages: location.languages }).locale };
}

/** A provider's field as the tool's output types it: providers are strangers, and a non-string title is no title. */
function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function searchTool(deps: ToolDeps<SearchFeatureSettings>): Tool {
  const providers = searchProviders(deps.db, deps.config);
  return defineContractTool({
    name: 'search',
    description: 'Search the web for a query; answers a list of results, each with url, title and description.',
    input: searchToolInput,
    async run(input, ctx) {
      const team = await deps.db.team.findUniqueOrThrow({ where: { id: ctx.teamId } });
      const request = searchRequestSchema.parse({ ...input, ...(ctx.location && localeOf(ctx.location)) });
      const answer = await runSearch(deps, providers, team, ctx.apiKeyId, request, { id: ctx.callId });
      const results = (answer.data.web ?? []).map(({ url, title, description }) => ({ url, title: text(title), description: text(description) }));
      return { output: { results, ...(answer.warning && { warning: answer.warning }) }, credits: answer.creditsUsed };
    },
  });
}
