// An in-memory FetchResource for robots.txt and sitemap tests.
import type { FetchResource } from '../../src/platform/net/fetch-resource.ts';

export type Served = { status: number; body?: string | Buffer; finalUrl?: string } | Error;

/** Unknown URLs are 404, an Error entry is a network failure; every URL asked for is appended to `requested`. */
export function fakeFetch(site: Record<string, Served>, requested: string[] = []): FetchResource {
  return async (url) => {
    requested.push(url);
    const served = site[url] ?? { status: 404 };
    if (served instanceof Error) throw served;
    return { status: served.status, body: Buffer.from(served.body ?? ''), headers: {}, finalUrl: served.finalUrl ?? url };
  };
}
