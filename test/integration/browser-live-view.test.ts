// The live view in a real headless browser: the viewer page shows the session's
// tab and its frames change when the session navigates (canvas screenshots
// compared); a click and typed text in the interactive view reach the session's
// page, the same input in the view-only view does not; tabs can be switched;
// tokens are checked. RECORD_LIVE_VIEW_PNG=<file> keeps a picture of the viewer
// (docs/images/live-view.png in docs/api/browser.md).
import { chromium, type Browser, type Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumLaunch } from '../../src/platform/browser/chromium-launch.ts';
import { page, startFixtureSite, type FixtureSite } from '../support/fixture-site.ts';
import { startHarness, waitFor, type Harness } from '../support/harness.ts';

let h: Harness;
let site: FixtureSite;
let viewerBrowser: Browser;

const FORM = `
<button id="b" style="position:absolute;left:0;top:0;width:300px;height:120px;font-size:40px">Press</button>
<input id="t" style="position:absolute;left:0;top:200px;width:400px;height:60px;font-size:30px">
<script>document.getElementById('b').onclick = () => { window.clicks = (window.clicks || 0) + 1; document.title = 'clicks ' + window.clicks; };</script>`;

beforeAll(async () => {
  h = await startHarness();
  site = await startFixtureSite({
    '/a': page('Alpha', '<h1 style="font-size:120px;color:#0a0">Alpha</h1>'),
    '/b': page('Bravo', '<div style="position:fixed;inset:0;background:#124;color:#fff;font-size:120px">Bravo</div>'),
    '/form': page('clicks 0', FORM),
  });
  await h.startWorker();
  await h.startBrowserHost();
  viewerBrowser = await chromium.launch(chromiumLaunch(h.config.chromium).launchOptions(undefined));
}, 120_000);

afterAll(async () => {
  await viewerBrowser?.close();
  await h?.stop();
  await site?.close();
});

async function newSession() {
  const s = await (await h.api('/v2/browser', { method: 'POST', json: { ttl: 300 } })).json();
  expect(s.success, JSON.stringify(s)).toBe(true);
  const client = await chromium.connectOverCDP(s.cdpUrl);
  return { s, client, tab: client.contexts()[0].pages()[0] };
}

const framesOf = async (viewer: Page) => Number((await viewer.locator('canvas').getAttribute('data-frames')) ?? 0);

async function openViewer(url: string): Promise<Page> {
  const viewer = await viewerBrowser.newPage({ viewport: { width: 1000, height: 800 } });
  await viewer.goto(url);
  await waitFor('a first frame', async () => (await framesOf(viewer)) > 0, 30_000);
  return viewer;
}

/** Clicks the viewer's canvas where the session page's CSS pixel (x, y) is drawn. */
async function clickAt(viewer: Page, tab: Page, x: number, y: number) {
  const { width, height } = await tab.evaluate(() => ({ width: window.innerWidth, height: window.innerHeight }));
  const box = (await viewer.locator('canvas').boundingBox())!;
  await viewer.mouse.click(box.x + (x / width) * box.width, box.y + (y / height) * box.height);
}

describe('the live view', () => {
  it('shows the session tab, and its frames follow the session', async () => {
    const { s, client, tab } = await newSession();
    await tab.goto(`${site.url}/a`);
    const viewer = await openViewer(s.liveViewUrl);
    expect(await viewer.title()).toBe(`Live view · ${s.id}`);
    await waitFor('the Alpha page in the view', async () => (await viewer.locator('#tabs option').first().textContent()) === 'Alpha', 30_000);
    const alpha = await viewer.locator('canvas').screenshot();
    if (process.env.RECORD_LIVE_VIEW_PNG) await viewer.screenshot({ path: process.env.RECORD_LIVE_VIEW_PNG });

    const before = await framesOf(viewer);
    await tab.goto(`${site.url}/b`);
    await waitFor('new frames after navigating', async () => (await framesOf(viewer)) > before, 30_000);
    const bravo = await waitFor(
      'a frame of the Bravo page',
      async () => {
        const shot = await viewer.locator('canvas').screenshot();
        return !shot.equals(alpha) && shot;
      },
      30_000,
    );
    expect(bravo.equals(alpha)).toBe(false);

    // A second tab appears in the switcher, and switching shows it.
    const second = await client.contexts()[0].newPage();
    await second.goto(`${site.url}/a`);
    await waitFor('two tabs listed', async () => (await viewer.locator('#tabs option').count()) === 2, 30_000);
    const options = await viewer.locator('#tabs option').evaluateAll((os) => os.map((o) => ({ value: (o as HTMLOptionElement).value, text: o.textContent })));
    const shown = await viewer.locator('#tabs').inputValue();
    const other = options.find((o) => o.value !== shown)!;
    const beforeSwitch = await viewer.locator('canvas').screenshot();
    await viewer.locator('#tabs').selectOption(other.value);
    await waitFor('the other tab in the view', async () => !(await viewer.locator('canvas').screenshot()).equals(beforeSwitch), 30_000);
    await client.close();
    await h.api(`/v2/browser/${s.id}`, { method: 'DELETE' });
  }, 120_000);

  it('forwards a click and typed text from the interactive view, and nothing from the view-only one', async () => {
    const { s, client, tab } = await newSession();
    await tab.goto(`${site.url}/form`);

    const watcher = await openViewer(s.liveViewUrl);
    await clickAt(watcher, tab, 150, 60);
    await watcher.locator('canvas').press('x');
    await new Promise((r) => setTimeout(r, 1500));
    expect(await tab.title()).toBe('clicks 0');

    const viewer = await openViewer(s.interactiveLiveViewUrl);
    await clickAt(viewer, tab, 150, 60);
    await waitFor('the click on the session page', async () => (await tab.title()) === 'clicks 1', 15_000);
    await clickAt(viewer, tab, 200, 230);
    await viewer.keyboard.type('hello live');
    await waitFor('the typed text in the session page', async () => (await tab.inputValue('#t')) === 'hello live', 15_000);
    await client.close();
    await h.api(`/v2/browser/${s.id}`, { method: 'DELETE' });
  }, 120_000);

  it('needs the right token, and there is none when streamWebView is false', async () => {
    const s = await (await h.api('/v2/browser', { method: 'POST', json: { ttl: 60, streamWebView: false } })).json();
    const live = await (await h.api('/v2/browser', { method: 'POST', json: { ttl: 60 } })).json();
    const wrong = live.liveViewUrl.replace(/token=[^&]+/, 'token=nope');
    expect((await fetch(wrong)).status).toBe(401);
    expect((await fetch(live.liveViewUrl.replace(live.id, s.id))).status).toBe(401);
    const ok = await fetch(live.liveViewUrl);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-security-policy')).toMatch(/script-src 'nonce-/);
    expect(ok.headers.get('referrer-policy')).toBe('no-referrer');
    await h.api(`/v2/browser/${live.id}`, { method: 'DELETE' });
    expect((await fetch(live.liveViewUrl)).status).toBe(410);
    await h.api(`/v2/browser/${s.id}`, { method: 'DELETE' });
  }, 60_000);
});
