// The judge: with a goal, judgeEnabled and a model configured (LLM_BASE_URL), each
// changed page's diff is given to the model with the monitor's goal, and its answer
// (is the change meaningful for that goal, and which parts) is stored on the page as
// its judgment. Without any of the three, pages carry no judgment. A model that fails
// leaves the page without one; the check does not fail for it. The tokens go on the
// ledger of the job that loaded the page.
import { configuredLlm } from '../../platform/llm/chat-completion.ts';
import { structuredCompletion } from '../../platform/llm/structured-output.ts';
import { recordModelTokens } from '../../platform/usage/credits.ts';
import type { ActivityDeps } from '../../platform/temporal/activity-deps.ts';
import type { JsonSchema } from '../../platform/llm/json-schema.ts';
import type { MonitorsFeatureSettings } from './config.ts';

/** Most changed pages judged per check, and most diff characters sent per page. */
const MAX_JUDGED_PAGES = 50;
const MAX_DIFF_CHARS = 12_000;

const JUDGMENT_SCHEMA: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['meaningful', 'confidence', 'reason', 'meaningfulChanges'],
  properties: {
    meaningful: { type: 'boolean' },
    confidence: { type: 'string', enum: ['high', 'medium', 'low'] },
    reason: { type: 'string' },
    meaningfulChanges: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['type', 'before', 'after', 'reason'],
        properties: {
          type: { type: 'string', enum: ['added', 'removed', 'changed'] },
          before: { type: ['string', 'null'] },
          after: { type: ['string', 'null'] },
          reason: { type: 'string' },
        },
      },
    },
  },
};

/** Judges the check's changed pages; returns how many got a judgment. */
export async function judgeCheck({ db, config, log }: ActivityDeps<MonitorsFeatureSettings>, checkId: string): Promise<number> {
  const llm = configuredLlm(config.llm);
  const check = await db.monitorCheck.findUnique({
    where: { id: checkId },
    include: { monitor: { select: { goal: true, judgeEnabled: true, teamId: true, apiKeyId: true } } },
  });
  if (!llm || !check?.monitor.goal || !check.monitor.judgeEnabled) return 0;
  const { goal } = check.monitor;
  const changed = await db.monitorCheckPage.findMany({ where: { checkId, status: 'changed' }, orderBy: { url: 'asc' }, take: MAX_JUDGED_PAGES });
  // A retried activity judges only what it has not judged yet.
  const pages = changed.filter((p) => p.judgment === null);
  let judged = 0;
  for (const page of pages) {
    const diff = (page.diff as { text?: string } | null)?.text ?? JSON.stringify(page.diff ?? {});
    try {
      const answer = await structuredCompletion(llm, {
        name: 'monitor_judgment',
        schema: JUDGMENT_SCHEMA,
        model: llm.smallModel,
        messages: [
          {
            role: 'system',
            content:
              "You watch web pages for a user. Given the user's goal and a diff of a page (lines starting with - were removed, + were added), say whether the change matters for the goal. Ignore changes the goal does not care about (dates, counters, layout). Answer in JSON.",
          },
          { role: 'user', content: `Goal: ${goal}\nPage: ${page.url}\nDiff:\n${diff.slice(0, MAX_DIFF_CHARS)}` },
        ],
      });
      await db.monitorCheckPage.update({ where: { id: page.id }, data: { judgment: answer.value as object } });
      if (page.currentScrapeId) {
        const job = await db.job.findUnique({ where: { id: page.currentScrapeId }, select: { kind: true } });
        await recordModelTokens(
          db,
          {
            teamId: check.monitor.teamId,
            apiKeyId: check.monitor.apiKeyId,
            endpoint: job?.kind === 'crawl' ? 'crawl' : 'batch_scrape',
            jobId: page.currentScrapeId,
            itemKey: `monitor-judgment:${page.urlKey}`,
          },
          answer.usage.promptTokens + answer.usage.completionTokens,
        );
      }
      judged++;
    } catch (err) {
      log.warn('monitor judgment failed; the page keeps no judgment', { checkId, url: page.url, error: (err as Error).message });
    }
  }
  return judged;
}
