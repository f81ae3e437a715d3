// The Firecrawl cloud services the official SDKs call that this self-hosted service
// does not offer, and the one refusal each gets (docs/api/cloud-services.md): a 501
// CLOUD_SERVICE_NOT_OFFERED naming the service and, where there is one, what this
// service offers instead. Their own routes are in src/features/cloud-services/; a
// value of another request that needs one (search's alexandria source and developer
// and gov categories, scrape's alexandria body) gets the same refusal.
// Here and not in a feature because several features refuse with it.
import { DomainError } from './domain-error.ts';

interface CloudService {
  /** The service as the sentence "<name> is a Firecrawl cloud service" names it. */
  name: string;
  /** What a caller can use here instead, when anything comes close. */
  instead?: string;
}

export const CLOUD_SERVICES = {
  'research-index': {
    name: 'The research paper index (paper search, paper reads, similar papers and its GitHub search)',
    instead: 'POST /v2/search with categories ["research"] searches the pages of academic sites this service has stored.',
  },
  'developer-index': {
    name: 'The developer index (developer search and the developer search category)',
    instead: 'POST /v2/search with categories ["github"] searches the GitHub pages this service has stored.',
  },
  'government-index': {
    name: 'The Government Index (government search and the gov search category)',
    instead: 'POST /v2/search with includeDomains searches the government sites this service has stored.',
  },
  alexandria: {
    name: 'The Alexandria exchange (provider tools: find tools, scrape with alexandria calls, search with the alexandria source)',
    instead: 'POST /v2/search with the sources web, images and news searches the pages this service has stored.',
  },
  feedback: {
    name: 'Job feedback (ratings of search, scrape, parse and map jobs, and the credit refunds they earn)',
  },
} as const satisfies Record<string, CloudService>;

export type CloudServiceId = keyof typeof CLOUD_SERVICES;

export function cloudServiceMessage(id: CloudServiceId): string {
  const service: CloudService = CLOUD_SERVICES[id];
  return `${service.name} is a Firecrawl cloud service; this self-hosted service does not offer it.${service.instead ? ` ${service.instead}` : ''}`;
}

/** The refusal of a request that needs the service: 501 CLOUD_SERVICE_NOT_OFFERED, `details.service` naming it. */
export function cloudServiceNotOffered(id: CloudServiceId): DomainError {
  return new DomainError('not-offered', cloudServiceMessage(id), undefined, { service: id });
}
