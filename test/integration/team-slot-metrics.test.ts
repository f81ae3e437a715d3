// The team slot gauges (docs/operations.md, Metrics) read from a database of
// this file's own, since they count every team of the deployment: slots held,
// and teams holding slots at or below their concurrency limit, a lapsed lease
// counting as free.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../src/platform/db/prisma.ts';
import { registry } from '../../src/platform/metrics/registry.ts';
import { serveSharedGauges } from '../../src/platform/metrics/shared-gauges.ts';
import { createTeam } from '../../src/platform/teams/teams.ts';
import { tryTeamSlot } from '../../src/platform/teams/team-slots.ts';
import { parsePrometheusText } from '../support/prometheus-text.ts';
import { createScratchDatabase, type ScratchDatabase } from '../support/scratch-database.ts';

let database: ScratchDatabase | undefined;
let db: Db;

beforeAll(async () => {
  database = await createScratchDatabase('team_slot_metrics');
  db = createDb(database.url);
  serveSharedGauges(db);
});

afterAll(async () => {
  await db?.$disconnect();
  await database?.drop();
});

describe('team slot gauges', () => {
  it('count the slots held and the teams at and below their limit; a lapsed lease is free', async () => {
    const full = await createTeam(db, { name: 'full', concurrencyLimit: 2 });
    const busy = await createTeam(db, { name: 'busy', concurrencyLimit: 3 });
    const lapsed = await createTeam(db, { name: 'lapsed', concurrencyLimit: 1 });
    await createTeam(db, { name: 'idle', concurrencyLimit: 5 });
    const take = (teamId: string, limit: number, holder: string, leaseMs = 60_000) => tryTeamSlot(db, { teamId, limit, holder, group: 'g', leaseMs });
    expect(await take(full.id, 2, 'f1')).toBeDefined();
    expect(await take(full.id, 2, 'f2')).toBeDefined();
    expect(await take(busy.id, 3, 'b1')).toBeDefined();
    expect(await take(lapsed.id, 1, 'l1', 1)).toBeDefined();
    // A sampled gauge answers its last read for 5 s (sampled-gauge.ts), and an earlier file of this
    // worker may have read these from its own database just before: wait past that age.
    await sleep(5_100);

    const m = parsePrometheusText(await registry.metrics());
    expect({
      held: m.value('crawl_service_team_slots_held'),
      atLimit: m.value('crawl_service_teams_holding_slots', { state: 'at_limit' }),
      belowLimit: m.value('crawl_service_teams_holding_slots', { state: 'below_limit' }),
    }).toEqual({ held: 3, atLimit: 1, belowLimit: 1 });
  });
});
