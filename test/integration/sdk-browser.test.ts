// The official SDKs, unchanged, against our browser sessions: the JS SDK's
// browser(), browserExecute(), listBrowsers(), deleteBrowser() and the Python SDK's
// browser() (with block_ads and location), browser_execute(), list_browsers(), delete_browser().
import Firecrawl from '@mendable/firecrawl-js';
import { chromium } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { page, type FixtureSite } from '../support/fixture-site.ts';
import { startSessionHarness } from '../support/session-harness.ts';
import type { Harness } from '../support/harness.ts';
import { runPythonSdk } from '../support/python-sdk.ts';

let h: Harness;
let site: FixtureSite;

beforeAll(async () => {
  ({ h, site } = await startSessionHarness({ '/': page('SDK session page', '<h1>sdk</h1>') }));
}, 120_000);

afterAll(async () => {
  await h?.stop();
  await site?.close();
});

describe('official SDKs and browser sessions', () => {
  it('@mendable/firecrawl-js: browser, browserExecute, listBrowsers, deleteBrowser', async () => {
    const client = new Firecrawl({ apiKey: h.apiKey, apiUrl: h.baseUrl });
    const created = await client.browser({ ttl: 120, activityTtl: 60 });
    expect(created).toMatchObject({ success: true, id: expect.any(String), cdpUrl: expect.stringContaining('/cdp?token='), expiresAt: expect.any(String) });

    const browser = await chromium.connectOverCDP(created.cdpUrl!);
    await browser.contexts()[0].pages()[0].goto(`${site.url}/`);
    await browser.close();

    const run = await client.browserExecute(created.id!, { code: 'await page.title()', language: 'node' });
    expect(run).toMatchObject({ success: true, result: 'SDK session page', exitCode: 0, killed: false });
    const failing = await client.browserExecute(created.id!, { code: 'throw new Error("boom")', language: 'node' });
    expect(failing.success).toBe(true);
    expect(failing.error).toMatch(/boom/);

    const listed = await client.listBrowsers({ status: 'active' });
    expect(listed.sessions?.map((s) => s.id)).toContain(created.id);
    const deleted = await client.deleteBrowser(created.id!);
    expect(deleted).toMatchObject({ success: true, creditsBilled: 2, sessionDurationMs: expect.any(Number) });
    expect((await client.listBrowsers({ status: 'destroyed' })).sessions?.map((s) => s.id)).toContain(created.id);
  }, 120_000);

  it('Python firecrawl: browser, browser_execute (bash, python, node), list_browsers, delete_browser', async () => {
    const run = await runPythonSdk('test/sdk/python_browser.py', { API_URL: h.baseUrl, API_KEY: h.apiKey, PAGE_URL: `${site.url}/` });
    expect(run.code, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(out.cdp_url).toContain(`/v2/browser/${out.id}/cdp?token=`);
    expect(out.bash[0]).toContain('SDK session page');
    expect(out.bash.slice(1)).toEqual([0, null]);
    expect(out.python).toEqual(['SDK session page\n', 0, null]);
    expect(out.node).toEqual(['42 en-GB Europe/London', 0]);
    expect(out.listed.map((s: unknown[]) => s[0])).toContain(out.id);
    expect(out.deleted).toEqual([true, expect.any(Number), 2]);
    expect(out.destroyed).toContain(out.id);
  }, 180_000);
});
