// What an extract costs: its pages as their scrapes cost (charged on the engine
// jobs that fetched them: 1 credit a page, 2 under zero data retention) plus its
// model calls as the json format bills them (4 credits for each page whose text
// reached the model, and every prompt and completion token on the ledger row).
import type { Db } from '../../platform/db/prisma.ts';
import { creditsUsedByJob } from '../../platform/usage/credits.ts';

export async function extractCredits(db: Db, extractId: string, runs: { jobId: string }[]): Promise<number> {
  let credits = await creditsUsedByJob(db, extractId);
  for (const run of runs) credits += await creditsUsedByJob(db, run.jobId);
  return credits;
}
