// The values of a search request that need a Firecrawl cloud service (the SDKs'
// types allow them; docs/api/search.md says what each does here): a refusal when
// nothing of the request can be answered without the service, else the warning
// naming the fields that are left out.
import { cloudServiceNotOffered } from '../../platform/cloud-services.ts';
import { categoryName, SOURCES, sourceName, type SearchRequest } from './search-request.ts';

export interface CloudValues {
  /** The warning of the answer about the tools it has not got (data.tools is then empty). */
  toolsWarning?: string;
}

/**
 * Refuses a developer or gov category (their results come from an index of their own, not from
 * the web search they replace) and the alexandria source alone; the alexandria
 * source beside others and domainTools only leave data.tools empty, with a warning.
 */
export function cloudValues(req: SearchRequest): CloudValues {
  const categories = new Set(req.categories.map(categoryName));
  if (categories.has('developer')) throw cloudServiceNotOffered('developer-index');
  if (categories.has('gov')) throw cloudServiceNotOffered('government-index');
  const sources = req.sources.map(sourceName);
  const alexandria = sources.includes('alexandria');
  if (alexandria && !sources.some((s) => (SOURCES as readonly string[]).includes(s))) throw cloudServiceNotOffered('alexandria');
  const fields = [...(alexandria ? ['sources: alexandria'] : []), ...(req.domainTools ? ['domainTools'] : [])];
  if (fields.length === 0) return {};
  return {
    toolsWarning: `${fields.join(' and ')}: tools come from the Alexandria exchange, a Firecrawl cloud service this self-hosted service does not offer; data.tools is empty`,
  };
}
