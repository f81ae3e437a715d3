// What a "kill the worker mid-job" test stands on: a harness whose jobs notice a
// dead worker within seconds (a 3-s heartbeat timeout) and a tree site of slow
// pages that keeps the job in flight long enough to kill its worker. Registered
// in a describe: set up before its tests, stopped after them.
import { afterAll, beforeAll } from 'vitest';
import { startFixtureSite, treeSite, type FixtureSite } from './fixture-site.ts';
import { startHarness, type Harness } from './harness.ts';

export interface KillTestStage {
  h: Harness;
  site: FixtureSite;
}

export function killTestStage(pages: number, delayMs = 400): KillTestStage {
  const stage = {} as KillTestStage;
  beforeAll(async () => {
    stage.h = await startHarness({ crawl: { heartbeatTimeoutMs: 3000 } });
    stage.site = await startFixtureSite(treeSite(pages), { delayMs: () => delayMs });
  });
  afterAll(async () => {
    await stage.site?.close();
    await stage.h?.stop();
  });
  return stage;
}
