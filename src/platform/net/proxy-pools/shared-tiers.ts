// The tiers `proxy: auto` learned per host, shared by every worker through one
// small PostgreSQL table (proxy_host_tier, UNLOGGED): a raise is written at once
// (a row's tier only ever rises until it expires, PROXY_TIER_SHARE_MS after its
// last raise), and a worker reads the rows of the hosts it is about to request
// (ProxyRouter.prime, at most every 10 s per host). Stickiness and benches stay
// each worker's own. Sharing is best effort: a failed statement is logged and
// the worker goes on with what it learned itself. Lapsed rows go with the
// scheduled purge (features/retention).
import type { SqlTx } from '../../db/sql-transactions.ts';
import type { Logger } from '../../log.ts';
import type { TierStore } from './proxy-router.ts';

export type TierDb = Pick<SqlTx, '$queryRaw'>;

export function sharedTierStore(db: TierDb, opts: { shareMs: number; log?: Logger }): TierStore {
  const failed = (what: string) => (err: unknown) => opts.log?.warn(`shared proxy tiers: ${what} failed`, { error: (err as Error).message });
  return {
    async load(keys) {
      try {
        const rows = await db.$queryRaw<{ key: string; tier: number }[]>`
          SELECT key, tier FROM proxy_host_tier WHERE key = ANY(${keys}::text[]) AND expires_at > now()`;
        return new Map(rows.map((r) => [r.key, r.tier]));
      } catch (err) {
        failed('reading')(err);
        return new Map();
      }
    },
    save(key, tier) {
      // A lapsed row starts over from the raise; a live one keeps the higher tier and lives on.
      db.$queryRaw`
        INSERT INTO proxy_host_tier (key, tier, expires_at) VALUES (${key}, ${tier}::int, now() + ${opts.shareMs}::bigint * interval '1 millisecond')
        ON CONFLICT (key) DO UPDATE SET
          tier = CASE WHEN proxy_host_tier.expires_at > now() THEN greatest(proxy_host_tier.tier, EXCLUDED.tier) ELSE EXCLUDED.tier END,
          expires_at = EXCLUDED.expires_at`.catch(failed('writing'));
    },
  };
}
