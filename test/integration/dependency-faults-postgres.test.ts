// PostgreSQL cut, reset, black-holed, slowed, killed and stopped under a mix of two
// teams' jobs, one fault per case (test/support/fault-stage.ts): the service's
// processes reach a PostgreSQL server of this file's own through a TCP proxy. Each
// case prints its figures (recovery seconds, answers 503, pages fetched twice).
import { afterAll, beforeAll, describe, it } from 'vitest';
import { CASE_TIMEOUT_MS, FAULTS, runFaultCase, startFaultStage, type FaultStage } from '../support/fault-stage.ts';

let stage: FaultStage;

beforeAll(async () => {
  stage = await startFaultStage('postgres');
});

afterAll(async () => {
  await stage?.stop();
});

describe('PostgreSQL down under a mix of jobs', () => {
  for (const fault of FAULTS) {
    it(
      fault.name,
      async () => {
        await runFaultCase(stage, fault);
      },
      CASE_TIMEOUT_MS,
    );
  }
});
