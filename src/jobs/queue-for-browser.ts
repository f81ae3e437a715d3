// A batch of a job is about to wait for a browser slot: its demand joins the browser share, in
// the job's group, so the slots are shared fairly between teams and jobs.
import type { Db } from '../platform/db/prisma.ts';
import { requestBrowser } from '../platform/browser/browser-share.ts';
import type { JobSettings } from './config.ts';

export interface BrowserWait {
  holder: string;
  crawlId: string;
  teamId: string;
}

export async function queueForBrowser({ db, config }: { db: Db; config: Pick<JobSettings, 'temporal'> }, work: BrowserWait): Promise<void> {
  await requestBrowser(db, { holder: work.holder, pool: config.temporal.browserTaskQueue, teamId: work.teamId, groupId: work.crawlId });
}
