// What an extract costs: its pages as their scrapes cost (charged on the engine
// jobs that fetched them: 1 credit a page, 2 under zero data retention) plus its
// model calls as the json format bills them (4 credits for each page whose text
// reached the model, and every prompt and completion token on the ledger row).
import type { Db } from '../../platform/db/prisma.ts';
import type { TokenUsage } from '../../platform/llm/chat-completion.ts';
import { chargeOnce, creditsUsedByJob, MODEL_FORMAT_CREDITS } from '../../platform/usage/credits.ts';

export async function extractCredits(db: Db, extractId: string, runs: { jobId: string }[]): Promise<number> {
  let credits = await creditsUsedByJob(db, extractId);
  for (const run of runs) credits += await creditsUsedByJob(db, run.jobId);
  return credits;
}

/** The ledger item of the extract's model calls (its pages are charged on their jobs). */
const MODEL_ITEM = 'model';

/** Charges the model calls once per extract: the json format's credits per page sent, and the tokens. */
export async function chargeExtractModel(
  db: Db,
  extract: { id: string; teamId: string; apiKeyId: string | null },
  usage: TokenUsage,
  pagesSent: number,
): Promise<void> {
  await db.$transaction((tx) =>
    chargeOnce(tx, {
      teamId: extract.teamId,
      apiKeyId: extract.apiKeyId,
      endpoint: 'extract',
      jobId: extract.id,
      itemKey: MODEL_ITEM,
      credits: pagesSent * MODEL_FORMAT_CREDITS,
      modelTokens: usage.promptTokens + usage.completionTokens,
    }),
  );
}
