// A crawl mid-way as an operator sees it in the Temporal Web UI: a dev server of
// this test's own, started with its UI, and the crawl's workflow page opened in
// Chromium, where its current details (waiting out its delay, pages stored and
// queued) and the summaries of its batches and timers show.
// WRITE_DOCS_SCREENSHOT=1 writes the picture in docs/operations.md
// (docs/images/temporal-ui-crawl.png).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newJobWorkflowId, progressQuery } from '../../src/jobs/definitions.ts';
import { chromiumLaunch } from '../../src/platform/browser/chromium-launch.ts';
import { createLogger } from '../../src/platform/log.ts';
import { freePort } from '../../src/platform/process/ports.ts';
import { startTemporalDevServer, type TemporalDevServer } from '../../src/platform/temporal/dev-server.ts';
import { startFixtureSite, treeSite, type FixtureSite } from '../support/fixture-site.ts';
import { startHarness, waitFor, type Harness } from '../support/harness.ts';

let h: Harness;
let site: FixtureSite;
let temporal: TemporalDevServer;
let browser: Browser;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'crawl-temporal-ui-'));
  const log = createLogger('warn', { process: 'test' });
  const [port, uiPort] = [await freePort(), await freePort()];
  temporal = await startTemporalDevServer({ cliPath: process.env.TEMPORAL_CLI_PATH!, dataDir: dir, port, uiPort, namespace: 'default', persist: false, log });
  h = await startHarness({ temporalAddress: temporal.address, crawl: { progressIntervalMs: 0 } });
  await h.startWorker();
  site = await startFixtureSite(treeSite(40));
  browser = await chromium.launch(chromiumLaunch(h.config.chromium).launchOptions(undefined));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await h?.stop();
  await temporal?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('the Temporal Web UI', () => {
  it("shows a running crawl's current details and the summaries of its activities and timers", async () => {
    const res = await h.api('/v2/crawl', { method: 'POST', json: { url: `${site.url}/`, sitemap: 'skip', limit: 40, delay: 3 } });
    expect(res.status).toBe(200);
    const { id } = await res.json();
    const handle = h.temporal.workflow.getHandle(newJobWorkflowId('crawl', id));
    await waitFor('the crawl waiting out its delay after a few pages', async () => {
      const p = await handle.query(progressQuery);
      return p.phase === 'delay' && p.completed >= 3;
    });

    const page = await browser.newPage({ viewport: { width: 1440, height: 1100 } });
    try {
      await page.goto(`${temporal.uiUrl}/namespaces/default/workflows/${newJobWorkflowId('crawl', id)}`);
      // The timeline labels each activity and timer with its summary.
      await page
        .getByText(/batch \d+: up to 1 page of 127\.0\.0\.1:\d+/)
        .first()
        .waitFor({ timeout: 60_000 });
      await page.getByText('delay 3 s between pages').first().waitFor();
      await page
        .getByText(/plan: robots\.txt and sitemaps of 127\.0\.0\.1:\d+/)
        .first()
        .waitFor();
      if (process.env.WRITE_DOCS_SCREENSHOT) await page.screenshot({ path: 'docs/images/temporal-ui-crawl-timeline.png' });

      // The current details: the UI runs the SDK's metadata query when the tab opens, and shows
      // the line (markdown) in the last of its frames (the summary has one too).
      await page.getByText('User Metadata', { exact: true }).click();
      await page
        .locator('iframe')
        .last()
        .contentFrame()
        .getByText(/\d+ stored, \d+ queued, 0 failed · /)
        .waitFor({ timeout: 60_000 });
      if (process.env.WRITE_DOCS_SCREENSHOT) {
        await page.setViewportSize({ width: 1440, height: 640 });
        await page.screenshot({ path: 'docs/images/temporal-ui-crawl.png' });
      }
    } finally {
      await page.close();
      await h.api(`/v2/crawl/${id}`, { method: 'DELETE' });
    }
  });
});
