// The benchmark's website: n pages of ordinary size (headings, paragraphs, a
// table, a list, a stylesheet and a small script that edits the DOM, so the
// browser has real rendering to do). Page i links to its two children in a
// tree plus two neighbours, so discovery keeps the crawler busy from the start.
// Without the script (BENCH_STATIC=1, or `scripted: false`) every page converts the
// same without a browser, which is what CRAWL_RENDERING=auto's HTTP path is measured on.
import { startFixtureSite, type FixtureSite } from '../test/support/fixture-site.ts';

const STYLE =
  'body{font-family:sans-serif;max-width:60em;margin:auto}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px}nav a{margin-right:1em}';

const STATIC = process.env.BENCH_STATIC === '1';

/** Page i of a bench site, linking to `hrefs` (bench:scale's generated site shares it). */
export function benchPageHtml(i: number, hrefs: string[], scripted: boolean): string {
  const links = hrefs.map((href) => `<a href="${href}">${href}</a>`);
  const paragraphs = Array.from(
    { length: 12 },
    (_, p) => `<p>Paragraph ${p} of page ${i}. ${'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(4)}</p>`,
  ).join('');
  const rows = Array.from({ length: 10 }, (_, r) => `<tr><td>${i}-${r}</td><td>${r * i}</td><td>item ${r}</td></tr>`).join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bench page ${i}</title>
<meta name="description" content="Benchmark page ${i}"><link rel="stylesheet" href="/style.css"></head>
<body><nav><a href="/">Home</a>${links.join('')}</nav><main><h1>Bench page ${i}</h1>${paragraphs}
<h2>Data</h2><table><tr><th>id</th><th>value</th><th>label</th></tr>${rows}</table>
<ul>${Array.from({ length: 8 }, (_, l) => `<li>List item ${l}</li>`).join('')}</ul><div id="late"></div></main>
${scripted ? `<script>document.getElementById('late').textContent = 'Rendered by script on page ${i}';</script>` : ''}</body></html>`;
}

/** `scripted` (default: unless BENCH_STATIC=1): each page's script edits its DOM, so under CRAWL_RENDERING=auto it goes to Chromium. */
export function benchSite(n: number, { scripted = !STATIC } = {}): Promise<FixtureSite> {
  const resources: Record<string, string | { headers: Record<string, string>; body: string }> = {
    '/style.css': { headers: { 'content-type': 'text/css' }, body: STYLE },
  };
  const path = (k: number) => (k === 0 ? '/' : `/page/${k}`);
  for (let i = 0; i < n; i++) {
    const hrefs = [2 * i + 1, 2 * i + 2, i + 1, i - 1].filter((k) => k > 0 && k < n).map(path);
    resources[path(i)] = benchPageHtml(i, hrefs, scripted);
  }
  return startFixtureSite(resources);
}
