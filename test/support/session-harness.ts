// What a browser-session test stands on: a harness with a worker and an
// in-process browser host, and a fixture site for the session to visit.
import type { BrowserHost } from '../../src/features/browser-sessions/host/browser-host.ts';
import { startFixtureSite, type FixtureResource, type FixtureSite } from './fixture-site.ts';
import { startHarness, type Harness, type HarnessOptions } from './harness.ts';

export async function startSessionHarness(
  resources: Record<string, FixtureResource>,
  options?: HarnessOptions,
): Promise<{ h: Harness; site: FixtureSite; host: BrowserHost }> {
  const h = await startHarness(options);
  const site = await startFixtureSite(resources);
  await h.startWorker();
  const host = await h.startBrowserHost();
  return { h, site, host };
}
