import { parseSitemap } from './src/features/crawl/sitemap.ts';
const MB50 = 50 * 1024 * 1024;
for (const unit of process.argv.slice(2)) {
const body = Buffer.from(unit.repeat(Math.floor(MB50 / unit.length)));
const ts = [];
for (let r = 0; r < 3; r++) { const t = performance.now(); parseSitemap(body, 'https://a.test/sitemap.xml'); ts.push((performance.now() - t).toFixed(0)); }
console.log(unit, ts.join(' '));
}
function scan(b: Buffer, x: number) { let c = 0; for (let i = 0; i < b.length; i++) if (b[i] === x) c++; return c; }
const b = Buffer.alloc(MB50); let t = performance.now(); scan(b, 60); console.log('plain loop', (performance.now() - t).toFixed(0));
