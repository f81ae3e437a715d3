// `npm run bench:usage`: how fast a team's usage history answers when its ledger is big.
// Fills one team's ledger with BENCH_LEDGER_ROWS charges (default 1,000,000) spread over
// 24 months and 5 API keys (the usage_month trigger runs for each, as in production), then
// times the history read (GET /v2/team/credit-usage/historical, with and without byApiKey)
// beside the baseline it replaces: summing the ledger itself by month. Prints p50 / p95 and
// the ratio; not a test.
import { join } from 'node:path';
import { loadConfig } from '../src/config.ts';
import { startEmbeddedPostgres } from '../src/platform/db/embedded-postgres.ts';
import { migrate } from '../src/platform/db/migrate.ts';
import { createDb } from '../src/platform/db/prisma.ts';
import { createLogger } from '../src/platform/log.ts';
import { scratchDataDir } from '../src/platform/process/data-dir.ts';
import { freePort } from '../src/platform/process/ports.ts';
import { createTeam, issueApiKey } from '../src/platform/teams/teams.ts';
import { usageHistory } from '../src/features/team/usage-report.ts';

const ROWS = Number(process.env.BENCH_LEDGER_ROWS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 50);
const log = createLogger('warn', { process: 'bench-usage' });

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function time(runs: number, fn: () => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  await fn();
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await fn();
    ms.push(performance.now() - started);
  }
  ms.sort((a, b) => a - b);
  return { p50: percentile(ms, 50), p95: percentile(ms, 95) };
}

async function main() {
  loadConfig();
  const dir = scratchDataDir('bench-usage-');
  const pg = await startEmbeddedPostgres({ dataDir: join(dir, 'pg'), port: await freePort(), database: 'bench', log });
  try {
    await migrate(pg.url, log);
    const db = createDb(pg.url);
    const team = await createTeam(db, { name: 'bench', credits: 0, concurrencyLimit: 4 });
    const keys = await Promise.all(Array.from({ length: 5 }, (_, i) => issueApiKey(db, team.id, `key-${i}`)));
    const keyIds = keys.map((k) => k.id);
    // Other teams' rows share the table, as they would in production.
    const other = await createTeam(db, { name: 'other', credits: 0, concurrencyLimit: 4 });
    const filled = performance.now();
    const chunk = 100_000;
    for (let start = 0; start < ROWS; start += chunk) {
      const n = Math.min(chunk, ROWS - start);
      await db.$executeRaw`
        INSERT INTO usage_entry (team_id, api_key_id, endpoint, job_id, item_key, credits, tokens, created_at)
        SELECT CASE WHEN g % 10 = 0 THEN ${other.id}::uuid ELSE ${team.id}::uuid END,
               (${keyIds}::uuid[])[1 + g % 5], 'crawl', 'job-' || (g / 1000), 'item-' || g, 1, 15,
               now() - ((g % 730) || ' days')::interval
        FROM generate_series(${start}::bigint, ${start + n - 1}::bigint) g`;
    }
    await db.$executeRaw`ANALYZE usage_entry`;
    await db.$executeRaw`ANALYZE usage_month`;
    console.log(`ledger: ${ROWS} rows (90 % of them the bench team's) in ${((performance.now() - filled) / 1000).toFixed(1)} s`);

    const history = await time(RUNS, () => usageHistory(db, team.id, false));
    const byKey = await time(RUNS, () => usageHistory(db, team.id, true));
    const baseline = await time(
      Math.min(RUNS, 10),
      () =>
        db.$queryRaw`SELECT date_trunc('month', created_at AT TIME ZONE 'UTC') AS month, sum(credits) FROM usage_entry WHERE team_id = ${team.id}::uuid GROUP BY 1 ORDER BY 1`,
    );
    const periods = (await usageHistory(db, team.id, false)).length;
    console.log(`history (${periods} months):          p50 ${history.p50.toFixed(2)} ms  p95 ${history.p95.toFixed(2)} ms`);
    console.log(`history by key (${periods} x 5):      p50 ${byKey.p50.toFixed(2)} ms  p95 ${byKey.p95.toFixed(2)} ms`);
    console.log(`baseline, summing the ledger:   p50 ${baseline.p50.toFixed(2)} ms  p95 ${baseline.p95.toFixed(2)} ms`);
    console.log(`ratio baseline / history (p50): ${(baseline.p50 / history.p50).toFixed(0)}x`);
    await db.$disconnect();
  } finally {
    await pg.stop();
  }
}

await main();
