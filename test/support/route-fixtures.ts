// The rows the generated requests of test/support/route-requests.ts point at, in the
// test database: a team with no credits (so a valid job request is answered 402
// before any row or workflow exists) and its crawls, batch and single scrapes, pages,
// browser sessions and a webhook delivery, inserted directly.
import { randomUUID } from 'node:crypto';
import type { Harness } from './harness.ts';
import type { RouteFixtures } from './route-requests.ts';

export async function insertRouteFixtures(h: Harness): Promise<RouteFixtures> {
  const ids: string[] = [];
  const batchIds: string[] = [];
  const scrapeIds: string[] = [];
  const sessionIds: string[] = [];
  // Room for one more job beside the fixtures' running ones, so a valid session request meets the 402.
  const team = await h.newTeam({ credits: 0, concurrencyLimit: 10 });
  const now = Date.now();
  const crawls = [
    { id: randomUUID(), status: 'completed', completedAt: new Date(now), expiresAt: new Date(now + 86_400_000) },
    { id: randomUUID(), status: 'scraping' },
    { id: randomUUID(), status: 'failed', completedAt: new Date(now), expiresAt: new Date(now + 86_400_000), error: 'boom' },
  ];
  for (const c of crawls) {
    await h.db.job.create({
      data: { teamId: team.teamId, url: 'http://example.com/', options: { url: 'http://example.com/', scrapeOptions: { headers: { Cookie: 'x' } } }, ...c },
    });
    ids.push(c.id);
  }
  for (const [kind, list] of [
    ['batch_scrape', batchIds],
    ['scrape', scrapeIds],
  ] as const) {
    for (const status of ['completed', 'scraping']) {
      const id = randomUUID();
      await h.db.job.create({
        data: {
          id,
          kind,
          teamId: team.teamId,
          url: 'http://example.com/',
          options: { url: 'http://example.com/' },
          status,
          ...(status === 'completed' && { completedAt: new Date(now), expiresAt: new Date(now + 86_400_000) }),
        },
      });
      list.push(id);
    }
  }
  await h.db.jobPage.create({
    data: { jobId: scrapeIds[0], urlKey: 'k', url: 'http://example.com/', success: true, statusCode: 200, document: { markdown: '# s' }, sizeBytes: 10 },
  });
  const [done] = crawls;
  await h.db.jobPage.createMany({
    data: [
      ...Array.from({ length: 5 }, (_, i) => ({
        jobId: done.id,
        urlKey: `k${i}`,
        url: `http://example.com/${i}`,
        success: true,
        statusCode: 200,
        document: { markdown: `# ${i}` },
        sizeBytes: 10,
      })),
      { jobId: done.id, urlKey: 'bad', url: 'http://example.com/bad', success: false, statusCode: 500, error: 'HTTP 500' },
    ],
  });
  for (const status of ['destroyed', 'error', 'active']) {
    const id = randomUUID();
    await h.db.browserSession.create({
      data: {
        id,
        teamId: team.teamId,
        status,
        ttlSeconds: 600,
        activityTtlSeconds: 300,
        streamWebView: true,
        cdpToken: 'c',
        viewToken: 'v',
        interactiveToken: 'i',
        expiresAt: new Date(now + 600_000),
        ...(status !== 'active' && { endedAt: new Date(now), durationMs: 1000, creditsBilled: 2, endReason: 'deleted' }),
      },
    });
    sessionIds.push(id);
  }
  const eventId = randomUUID();
  await h.db.webhookEvent.create({
    data: {
      id: eventId,
      crawlId: done.id,
      type: 'crawl.page',
      itemKey: 'k0',
      url: 'http://example.com/hook',
      headers: {},
      body: '{}',
      state: 'failed',
      attempts: 1,
    },
  });
  await h.db.webhookAttempt.create({ data: { eventId, attempt: 1, startedAt: new Date(), durationMs: 3, statusCode: 500, error: 'HTTP 500' } });
  return { apiKey: team.apiKey, crawlIds: ids, batchIds, scrapeIds, sessionIds };
}
