// Crawlee's Playwright plugin, when its pages share one persistent context (not
// incognito pages), launches a whole second Chromium just to read the version
// string and closes it again (browser-pool's playwright-plugin.js, `_browserVersion`).
// A crawler per batch made that a second, serial Chromium launch before every
// batch's first page. The version is the same for every launch of one executable,
// so it is learnt once per worker process and handed to each later crawler's plugin.
// Should a Crawlee release rename the field, nothing breaks: batches launch twice again.
import type { PlaywrightCrawler } from '@crawlee/playwright';

type PluginWithVersion = { _browserVersion?: string };

const versions = new Map<string, string>();

/** Seeds the crawler's plugin with the executable's known version; call the result after the run to learn it. */
export function shareBrowserVersion(crawler: PlaywrightCrawler, executable: string): () => void {
  const plugin = crawler.browserPool.browserPlugins[0] as unknown as PluginWithVersion | undefined;
  if (!plugin) return () => undefined;
  const known = versions.get(executable);
  if (known !== undefined && plugin._browserVersion === undefined) plugin._browserVersion = known;
  return () => {
    if (typeof plugin._browserVersion === 'string' && plugin._browserVersion !== '') versions.set(executable, plugin._browserVersion);
  };
}
