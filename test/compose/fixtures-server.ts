// The compose test's outside world, run as a service of the stack (the app image
// with test/ mounted): the site the crawl walks on :8080 and a fake SearXNG on
// :8081. `node --import tsx test/compose/fixtures-server.ts <pages> <delay ms>`.
import { startFakeSearxng } from '../support/fake-searxng.ts';
import { startFixtureSite, treeSite } from '../support/fixture-site.ts';

const pages = Number(process.argv[2] ?? 60);
const delayMs = Number(process.argv[3] ?? 0);
await startFixtureSite(treeSite(pages), { host: 'fixtures', listen: '0.0.0.0', port: 8080, delayMs: () => delayMs });
await startFakeSearxng({ host: '0.0.0.0', port: 8081 });
console.log(`fixtures: a ${pages}-page site on :8080 (${delayMs} ms per page), a fake SearXNG on :8081`);
