// The proxy pools a deployment routes crawl traffic through: read from the JSON
// named by PROXY_POOLS_FILE (or given inline in PROXY_POOLS), plus CRAWL_PROXY_URL
// as a one-proxy pool of the base tier. Validated once at start, so a typo stops
// the process with the pool, the proxy and the rule it broke, not every page.
// Credentials stay inside `url` and `authorization`; everything that may be
// logged or shown (`label`) names the pool, the position and host:port only.
import { z } from 'zod';
import { parseUpstream, type Upstream } from '../guard-proxy/endpoints.ts';

export const PROXY_MODES_WITH_TIERS = ['stealth', 'enhanced'] as const;

export interface ProxyEntry {
  /** pool name and position, e.g. "residential#2": stable, credential-free, used in logs and metrics. */
  id: string;
  pool: string;
  tier: number;
  /** Upper-case ISO 3166-1 alpha-2 codes; empty for an untagged pool. */
  countries: readonly string[];
  /** host:port, for messages. */
  label: string;
  upstream: Upstream;
}

export interface ProxyPools {
  proxies: readonly ProxyEntry[];
  /** Distinct tiers, ascending; the first is the base tier (`proxy: basic`, where `auto` starts). */
  tiers: readonly number[];
  /** The tier `stealth` and `enhanced` use (default: the highest). */
  modeTiers: Record<(typeof PROXY_MODES_WITH_TIERS)[number], number>;
  /** Countries some pool is tagged with: `location.country` is routed only when this is not empty. */
  countries: ReadonlySet<string>;
}

const countryCode = z
  .string()
  .regex(/^[A-Za-z]{2}$/, 'a country tag must be a 2-letter ISO 3166-1 code such as "us" or "DE"')
  .transform((c) => c.toUpperCase());

const proxyUrl = z.string().superRefine((text, ctx) => {
  const url = URL.parse(text);
  if (!url || url.protocol !== 'http:' || !url.hostname || url.pathname.length > 1 || url.search || url.hash) {
    // The URL is not repeated: it may carry credentials.
    ctx.addIssue({
      code: 'custom',
      message: 'must be an http://[user:pass@]host:port proxy URL (no path); the proxy speaks HTTP, CONNECT tunnels carry https',
    });
  }
});

const poolSchema = z.strictObject({
  name: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'a pool name is 1 to 64 letters, digits, "_", "." or "-"'),
  tier: z.int().min(0).max(9),
  proxies: z.array(proxyUrl).min(1, 'a pool lists at least one proxy URL').max(1000),
  countries: z.array(countryCode).max(250).default([]),
});

const fileSchema = z.strictObject({
  pools: z.array(poolSchema).max(100),
  modes: z.strictObject({ stealth: z.int().min(0).max(9).optional(), enhanced: z.int().min(0).max(9).optional() }).default({}),
});

export type ProxyPoolsFile = z.input<typeof fileSchema>;

function label(upstream: Upstream): string {
  return upstream.host.includes(':') ? `[${upstream.host}]:${upstream.port}` : `${upstream.host}:${upstream.port}`;
}

function issuesText(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(top level)'}: ${i.message}`).join('; ');
}

/**
 * The pools of `text` (the file's JSON, `source` naming it for errors) and of `singleProxyUrl`
 * (CRAWL_PROXY_URL, a pool named "default" of the base tier). Throws on the first file that breaks a rule.
 */
export function parseProxyPools(text: string | undefined, source: string, singleProxyUrl?: string): ProxyPools {
  let json: unknown = { pools: [] };
  if (text !== undefined) {
    try {
      json = JSON.parse(text);
    } catch (err) {
      throw new Error(`${source} is not valid JSON: ${(err as Error).message}`, { cause: err });
    }
  }
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) throw new Error(`${source} is not a valid proxy pools file: ${issuesText(parsed.error)}`);
  const pools = parsed.data.pools;
  const names = new Set<string>();
  for (const pool of pools) {
    if (names.has(pool.name)) throw new Error(`${source}: the pool name "${pool.name}" is used twice`);
    names.add(pool.name);
  }
  if (singleProxyUrl !== undefined) {
    if (!proxyUrl.safeParse(singleProxyUrl).success) throw new Error('CRAWL_PROXY_URL must be an http://[user:pass@]host:port proxy URL (no path)');
    if (names.has('default')) throw new Error(`${source}: the pool name "default" is CRAWL_PROXY_URL's; name the pool otherwise`);
    const lowest = Math.min(0, ...pools.map((p) => p.tier));
    pools.unshift({ name: 'default', tier: lowest, proxies: [singleProxyUrl], countries: [] });
  }
  const proxies = pools.flatMap((pool) =>
    pool.proxies.map((url, i): ProxyEntry => {
      const upstream = parseUpstream(url);
      return { id: `${pool.name}#${i + 1}`, pool: pool.name, tier: pool.tier, countries: pool.countries, label: label(upstream), upstream };
    }),
  );
  const tiers = [...new Set(proxies.map((p) => p.tier))].sort((a, b) => a - b);
  const highest = tiers.at(-1) ?? 0;
  const modeTiers = { stealth: parsed.data.modes.stealth ?? highest, enhanced: parsed.data.modes.enhanced ?? highest };
  for (const mode of PROXY_MODES_WITH_TIERS) {
    if (proxies.length && !tiers.includes(modeTiers[mode])) {
      throw new Error(`${source}: modes.${mode} names tier ${modeTiers[mode]}, which no pool has (tiers: ${tiers.join(', ')})`);
    }
  }
  return { proxies, tiers, modeTiers, countries: new Set(proxies.flatMap((p) => p.countries)) };
}
