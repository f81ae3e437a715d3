// What every conformance suite sends its SDK calls to: the harness's gateway with the
// local fake model, and a team with every flag and no credits (a valid job start is a
// 402 there, so generated requests start nothing). Registers its own beforeAll/afterAll.
import { afterAll, beforeAll } from 'vitest';
import { startFakeLlm, type FakeLlm } from '../../support/fake-llm.ts';
import { startHarness, type Harness } from '../../support/harness.ts';
import { ALL_TEAM_FLAGS } from './team-flags.ts';

export interface ConformanceStage {
  h: Harness;
  baseUrl: string;
  /** The API key of the team without credits. */
  poorKey: string;
}

/** The stage, ready once the file's beforeAll has run. */
export function conformanceStage(): () => ConformanceStage {
  let llm: FakeLlm | undefined;
  let stage: ConformanceStage | undefined;
  beforeAll(async () => {
    llm = await startFakeLlm();
    const h = await startHarness({ llm: { baseUrl: llm.url, model: 'fake-big', smallModel: 'fake-small', local: true } });
    const { apiKey: poorKey } = await h.newTeam({ credits: 0, flags: ALL_TEAM_FLAGS });
    stage = { h, baseUrl: h.baseUrl, poorKey };
  });
  afterAll(async () => {
    await stage?.h.stop();
    await llm?.close();
  });
  return () => {
    if (!stage) throw new Error('the conformance stage is not started yet (used outside a test?)');
    return stage;
  };
}
