// Navigation inside a session goes through the same private-address guard as
// crawls: with private addresses refused (the default), neither an execute nor a
// CDP client can make the session's browser load a page on a private address.
import { chromium } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Harness } from '../support/harness.ts';
import { page, type FixtureSite } from '../support/fixture-site.ts';
import { startSessionHarness } from '../support/session-harness.ts';

let h: Harness;
let site: FixtureSite;

beforeAll(async () => {
  ({ h, site } = await startSessionHarness({ '/': page('Private page', '<p>secret</p>') }, { crawl: { allowPrivateAddresses: false } }));
}, 120_000);

afterAll(async () => {
  await h?.stop();
  await site?.close();
});

describe('a session browser and private addresses', () => {
  it('refuses loopback and link-local targets for executes and CDP clients alike', async () => {
    const s = await (await h.api('/v2/browser', { method: 'POST', json: { ttl: 120 } })).json();
    expect(s.success, JSON.stringify(s)).toBe(true);
    for (const target of [`${site.url}/`, 'http://169.254.169.254/latest/meta-data/', `http://localhost:${site.port}/`]) {
      const code = `const r = await page.goto(${JSON.stringify(target)}).catch((e) => e); r instanceof Error ? r.message : r.status() + ' ' + (await page.content())`;
      const run = await (await h.api(`/v2/browser/${s.id}/execute`, { method: 'POST', json: { code } })).json();
      expect(run.success).toBe(true);
      expect(run.result, target).toMatch(/net::ERR_|^403 /);
      expect(run.result).not.toContain('secret');
    }
    const browser = await chromium.connectOverCDP(s.cdpUrl);
    const tab = browser.contexts()[0].pages()[0];
    const answer = await tab.goto(`${site.url}/`).catch((err: Error) => err);
    expect(answer instanceof Error ? answer.message : String(answer?.status())).toMatch(/net::ERR_|^403$/);
    await browser.close();
    expect(site.hits.get('/') ?? 0).toBe(0);
    await h.api(`/v2/browser/${s.id}`, { method: 'DELETE' });
  }, 120_000);
});
