// The providers a gateway searches with, in rank order: the local index (unless
// SEARCH_LOCAL is off), then the configured web engines.
import type { Db } from '../../platform/db/prisma.ts';
import type { SearchProvider } from './provider.ts';
import { createLocalProvider } from './providers/local.ts';
import { createSearxngProvider } from './providers/searxng.ts';
import type { SearchFeatureSettings } from './config.ts';

export function searchProviders(db: Db, config: SearchFeatureSettings): SearchProvider[] {
  const providers: SearchProvider[] = [];
  const s = config.search;
  if (s.local)
    providers.push(createLocalProvider(db, { sharePublicPages: s.sharePublicPages, candidates: s.candidates, statementTimeoutMs: s.statementTimeoutMs }));
  if (s.searxngUrl)
    providers.push(
      createSearxngProvider({ url: s.searxngUrl, engines: s.searxngEngines, maxResponseBytes: s.searxngMaxResponseBytes, maxPages: s.searxngMaxPages }),
    );
  return providers;
}
