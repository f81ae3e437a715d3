// Map as a tool for other features (the agent): POST /v2/map's own path (its
// row, its credit, its workflow) for one site, answered as the site's links.
import { z } from 'zod';
import { httpUrl } from '../../platform/http/common-schemas.ts';
import { creditsUsedByJob } from '../../platform/usage/credits.ts';
import { defineTool, type Tool, type ToolDeps } from '../../platform/tools/tool.ts';
import { mapRequestSchema, MAX_SEARCH_LENGTH } from './map-request.ts';
import { createMap, runMap } from './start-map.ts';
import type { MapFeatureSettings } from './config.ts';

const MAX_TOOL_LINKS = 200;

export function mapTool(deps: ToolDeps<MapFeatureSettings>): Tool {
  return defineTool({
    name: 'map',
    description: "List a site's URLs (from its sitemaps, its start page and pages already indexed), optionally ranked for a search term.",
    input: z.strictObject({
      url: httpUrl,
      search: z.string().max(MAX_SEARCH_LENGTH).optional(),
      limit: z.int().min(1).max(MAX_TOOL_LINKS).default(50),
    }),
    urlsOf: (input) => [input.url],
    async run(input, ctx) {
      const team = await deps.db.team.findUniqueOrThrow({ where: { id: ctx.teamId } });
      const request = mapRequestSchema.parse({ ...input, timeout: Math.min(deps.config.agent.toolTimeoutMs, 300_000) });
      const id = await createMap(deps, team, ctx.apiKeyId, request, { id: ctx.callId });
      const { links, warning } = await runMap(deps, id, request, request.timeout, true);
      return { output: { links, ...(warning && { warning }) }, credits: await creditsUsedByJob(deps.db, id) };
    },
  });
}
