// Every format and action that runs code inside the page, in the worker `npm start`
// runs: its real entry point under the tsx loader (spawnWorker), not this test
// runner's transform. A loader that rewrites functions handed to the page (esbuild's
// keepNames adds calls to a `__name` the page lacks) fails here and nowhere else.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { page, startFixtureSite, type FixtureSite } from '../support/fixture-site.ts';
import { startHarness, type Harness } from '../support/harness.ts';
import { solidPng } from '../support/png.ts';

let h: Harness;
let site: FixtureSite;
const workerOutput: string[] = [];

const STYLE = `<style>
  body { background: #ffffff; color: #111827; font-family: Georgia, serif; font-size: 16px; line-height: 24px; margin: 0; }
  h1 { color: #ff5a1f; font-family: "Trebuchet MS", sans-serif; font-size: 40px; }
  a { color: #2563eb; }
  .btn { display: inline-block; background: #ff5a1f; color: #ffffff; border: 1px solid #ff5a1f; border-radius: 6px; padding: 10px 16px; }
  #box { height: 100px; overflow: auto; }
</style>`;

// The banner has no size attributes: only the browser's measure gives the index its size.
const SHOP = page(
  'Acme tools',
  `<header><a href="/" class="logo-link"><img src="/logo.png" alt="Acme logo" width="120" height="40"></a></header>
   <main><h1>Acme tools</h1>
   <p>Tools for builders who like sturdy things, sold since 1999.</p>
   <p>Read <a href="/about">about us</a> before you buy anything at all.</p>
   <button class="btn" id="reveal" onclick="document.getElementById('secret').hidden = false">Reveal</button>
   <p id="secret" hidden>Secret revealed</p>
   <div class="item" data-sku="A1">Hammer</div><div class="item" data-sku="B2">Saw</div>
   <img src="/banner.png" alt="Acme banner">
   <div id="box"><div style="height: 1000px">inside the box</div></div>
   <form id="search"><input id="q" name="q"></form><p id="submitted"></p>
   <div style="height: 2000px">spacer</div></main>
   <script>
     document.getElementById('search').addEventListener('submit', (e) => {
       e.preventDefault();
       document.getElementById('submitted').textContent = 'Submitted: ' + document.getElementById('q').value;
     });
     setTimeout(() => { const d = document.createElement('div'); d.id = 'ready'; d.textContent = 'ready'; document.body.append(d); }, 150);
   </script>`,
  `<link rel="icon" href="/favicon.png"><meta property="og:image" content="/og.png">${STYLE}`,
);

beforeAll(async () => {
  h = await startHarness();
  site = await startFixtureSite({
    '/shop': SHOP,
    '/logo.png': { headers: { 'content-type': 'image/png' }, body: solidPng(120, 40) },
    '/banner.png': { headers: { 'content-type': 'image/png' }, body: solidPng(64, 16) },
  });
  await h.spawnWorker({ output: workerOutput });
});

afterAll(async () => {
  await site?.close();
  await h?.stop();
});

async function scrape(body: Record<string, unknown>) {
  const res = await h.api('/v2/scrape', { method: 'POST', json: { url: `${site.url}/shop`, maxAge: 0, ...body } });
  const answer = await res.json();
  expect(res.status, JSON.stringify(answer).slice(0, 2000)).toBe(200);
  expect(answer.data.warning).toBeUndefined();
  expect(JSON.stringify(answer).match(/.{0,200}(ReferenceError|__name).{0,200}/)?.[0]).toBeUndefined();
  return answer.data;
}

/** Width and height of a PNG data URL, from its IHDR chunk. */
function pngSize(dataUrl: string): [number, number] {
  expect(dataUrl).toMatch(/^data:image\/png;base64,/);
  const png = Buffer.from(dataUrl.split(',')[1], 'base64');
  return [png.readUInt32BE(16), png.readUInt32BE(20)];
}

it('branding, images, attributes, a screenshot and every action, in the spawned worker', async () => {
  const data = await scrape({
    formats: ['markdown', 'branding', 'images', { type: 'attributes', selectors: [{ selector: '.item', attribute: 'data-sku' }] }, 'screenshot'],
    actions: [
      { type: 'click', selector: '#reveal' },
      { type: 'wait', selector: '#ready' },
      { type: 'wait', milliseconds: 50 },
      { type: 'scroll', direction: 'down' },
      { type: 'scroll', direction: 'down', selector: '#box' },
      {
        type: 'executeJavascript',
        script: 'return [window.scrollY === window.innerHeight, document.getElementById("box").scrollTop, document.getElementById("secret").hidden]',
      },
      { type: 'scroll', direction: 'up' },
      { type: 'click', selector: '#q' },
      { type: 'write', text: 'hello world' },
      { type: 'press', key: 'Enter' },
      { type: 'executeJavascript', script: '[document.getElementById("submitted").textContent, window.scrollY]' },
      { type: 'screenshot', quality: 50 },
      { type: 'scrape' },
      { type: 'pdf', format: 'A4' },
    ],
  });
  expect(data.branding).toMatchObject({
    colorScheme: 'light',
    logo: `${site.url}/logo.png`,
    colors: { primary: '#FF5A1F', background: '#FFFFFF', textPrimary: '#111827', link: '#2563EB' },
    typography: { fontFamilies: { primary: 'Georgia', heading: 'Trebuchet MS' }, fontSizes: { h1: '40px', body: '16px' } },
    components: { buttonPrimary: { background: '#FF5A1F', textColor: '#FFFFFF', borderRadius: '6px' } },
    images: { logo: `${site.url}/logo.png`, favicon: `${site.url}/favicon.png`, ogImage: `${site.url}/og.png` },
  });
  expect(data.images).toEqual([`${site.url}/favicon.png`, `${site.url}/og.png`, `${site.url}/logo.png`, `${site.url}/banner.png`]);
  expect(data.attributes).toEqual([{ selector: '.item', attribute: 'data-sku', values: ['A1', 'B2'] }]);
  expect(pngSize(data.screenshot)).toEqual([1280, 720]);
  expect(data.markdown).toContain('Submitted: hello world');
  expect(data.markdown).toContain('Secret revealed');

  const { actions } = data;
  expect(actions.javascriptReturns).toEqual([
    { type: 'array', value: [true, 100, false] },
    { type: 'array', value: ['Submitted: hello world', 0] },
  ]);
  expect(actions.screenshots).toEqual([expect.stringMatching(/^data:image\/jpeg;base64,\/9j\//)]);
  expect(actions.scrapes).toEqual([{ url: `${site.url}/shop`, html: expect.stringContaining('<p id="submitted">Submitted: hello world</p>') }]);
  expect(actions.pdfs).toHaveLength(1);
  expect(Buffer.from(actions.pdfs[0].split(',')[1], 'base64').subarray(0, 5).toString()).toBe('%PDF-');

  // The index took the banner's size from the browser's measure of it.
  const found = await (await h.api('/v2/search', { method: 'POST', json: { query: 'imagesize:64x16', sources: ['images'] } })).json();
  expect(found.data.images).toMatchObject([{ imageUrl: `${site.url}/banner.png`, imageWidth: 64, imageHeight: 16 }]);
});

it('screenshot@fullPage is the whole page', async () => {
  const data = await scrape({ formats: ['screenshot@fullPage'] });
  const [width, height] = pngSize(data.screenshot);
  expect(width).toBe(1280);
  expect(height).toBeGreaterThan(2000);
});

it('the worker logged no error from inside a page', () => {
  expect(workerOutput.length).toBeGreaterThan(0);
  expect(workerOutput.filter((line) => /ReferenceError|__name|is not defined/.test(line))).toEqual([]);
});
