// The providers a gateway searches with, in rank order: the local index (unless
// SEARCH_LOCAL is off), then the configured web engines.
import type { Config } from '../../platform/config.ts';
import type { Db } from '../../platform/db/prisma.ts';
import type { SearchProvider } from './provider.ts';
import { createLocalProvider } from './providers/local.ts';

export function searchProviders(db: Db, config: Config): SearchProvider[] {
  const providers: SearchProvider[] = [];
  if (config.search.local) providers.push(createLocalProvider(db, { sharePublicPages: config.search.sharePublicPages, candidates: config.search.candidates }));
  return providers;
}
