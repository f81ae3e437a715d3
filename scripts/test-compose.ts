// `npm run test:compose`: builds the image and runs the whole compose stack on
// this machine with podman (PostgreSQL, Temporal, 2 workers, 2 browser hosts,
// the gateway), drives it through the gateway (a browser session with executes,
// a search, a crawl during which one worker and one browser host are killed),
// and leaves the machine as it found it: containers, networks, volumes, the
// images it built, iptables chains and ip_forward. It keeps one image as a
// cache, localhost/debian-base:bookworm. Needs root (apt-get, rootful podman).
// --keep-images keeps the built images too, so a rerun builds only what changed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '../src/platform/process/ports.ts';
import { browserSession, crawlPages, crawlProgress, searchWeb, startCrawl, type Gateway } from '../test/compose/gateway-checks.ts';
import { healthOf, startHealthcheckLoop } from '../test/compose/healthcheck-loop.ts';
import { recordHostNetwork, restoreHostNetwork } from '../test/compose/host-network-state.ts';
import { BASE_IMAGE, ensureBaseImage, ensureContainerTools, imageIds, startApiService, writeContainersConf } from '../test/compose/podman-tools.ts';
import { run } from '../test/compose/run-command.ts';
import { TYPESCRIPT_NODE_ARGS } from '../src/platform/process/typescript-runtime.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const PROJECT = 'crawl-compose-test';
const IMAGE_PREFIX = 'localhost/crawl-compose-test';
const FIXTURE_PAGES = 150;
const FIXTURE_DELAY_MS = 300;
// Pages stored before one worker and one host are killed: the crawl is well under way, far from done.
const KILL_AFTER_PAGES = 15;
const keepImages = process.argv.includes('--keep-images');

const started = Date.now();
const timings: [string, number][] = [];
const say = (line: string) => console.log(`[compose-test +${((Date.now() - started) / 1000).toFixed(1)}s] ${line}`);

async function timed<T>(what: string, step: () => Promise<T>): Promise<T> {
  const t0 = Date.now();
  say(`${what} ...`);
  const value = await step();
  const seconds = (Date.now() - t0) / 1000;
  timings.push([what, seconds]);
  say(`${what}: ${seconds.toFixed(1)} s`);
  return value;
}

async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

if (process.getuid?.() !== 0) {
  console.error('npm run test:compose needs root: it installs packages with apt-get and runs rootful podman');
  process.exit(2);
}
await ensureContainerTools(say);

const workDir = mkdtempSync(join(tmpdir(), 'compose-test-'));
const podmanEnv = { ...process.env, CONTAINERS_CONF: writeContainersConf(workDir) };
const network = await recordHostNetwork();
const imagesBefore = await imageIds(podmanEnv);
const gatewayPort = await freePort();
const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
const composeEnv: NodeJS.ProcessEnv = {
  ...podmanEnv,
  GATEWAY_PORT: `127.0.0.1:${gatewayPort}`,
  TEMPORAL_PORT: String(await freePort()),
  PUBLIC_BASE_URL: gatewayUrl,
  FIXTURE_PAGES: String(FIXTURE_PAGES),
  FIXTURE_DELAY_MS: String(FIXTURE_DELAY_MS),
  COMPOSE_HTTP_TIMEOUT: '600',
};
const composeArgs = ['-p', PROJECT, '-f', join(ROOT, 'docker-compose.yml'), '-f', join(ROOT, 'test/compose/docker-compose.test-stack.yml')];
const compose = (args: string[]) => run('docker-compose', [...composeArgs, ...args], { env: composeEnv, cwd: ROOT });
let api: Awaited<ReturnType<typeof startApiService>> | undefined;
let healthchecks: ReturnType<typeof startHealthcheckLoop> | undefined;
let failed = false;

interface Replica {
  id: string;
  service: string;
  index: number;
}

/** The project's containers by compose's labels (podman ORs repeated `--filter label=`, so services are told apart here). */
async function replicas(): Promise<Replica[]> {
  const out = await run('podman', ['ps', '-a', '--format', 'json', '--filter', `label=com.docker.compose.project=${PROJECT}`], { env: podmanEnv });
  const listed = JSON.parse(out.trim() || '[]') as { Id: string; Labels: Record<string, string> }[];
  return listed.map((c) => ({ id: c.Id, service: c.Labels['com.docker.compose.service'], index: Number(c.Labels['com.docker.compose.container-number']) }));
}

async function container(service: string, index = 1): Promise<string> {
  const found = (await replicas()).find((c) => c.service === service && c.index === index);
  if (!found) throw new Error(`no container ${service} #${index}`);
  return found.id;
}

try {
  await timed(`base image ${BASE_IMAGE}`, () => ensureBaseImage(podmanEnv, workDir, say));
  await timed('build the images', async () => {
    const build = (tag: string, file: string, context: string) =>
      run('podman', ['build', '--layers', '--build-arg', `BASE_IMAGE=${BASE_IMAGE}`, '-t', `${IMAGE_PREFIX}/${tag}:latest`, '-f', file, context], {
        env: podmanEnv,
        cwd: ROOT,
      });
    // One at a time: the machine's cores are few, and parallel apt-gets gain nothing.
    await build('postgres', 'test/compose/postgres.Containerfile', 'test/compose');
    await build('temporal', 'test/compose/temporal.Containerfile', 'test/compose');
    await build('app', 'Dockerfile', '.');
  });
  api = await startApiService(podmanEnv, workDir);
  composeEnv.DOCKER_HOST = `unix://${api.socket}`;
  healthchecks = startHealthcheckLoop(podmanEnv, PROJECT);
  await timed('docker-compose up (worker x2, browser-host x2)', () => compose(['up', '-d', '--no-build', '--scale', 'worker=2', '--scale', 'browser-host=2']));
  const apps = [
    ['gateway', 1],
    ['worker', 1],
    ['worker', 2],
    ['browser-host', 1],
    ['browser-host', 2],
    ['fixtures', 1],
  ] as const;
  await timed('every process healthy', () =>
    until('healthy app containers', 300_000, async () => {
      const all = await replicas();
      const ids = apps.map(([service, n]) => all.find((c) => c.service === service && c.index === n)?.id);
      if (ids.some((id) => id === undefined)) return undefined;
      const states = await Promise.all(ids.map((id) => healthOf(podmanEnv, id!)));
      return states.every((s) => s === 'healthy') ? true : undefined;
    }),
  );

  const gateway = await container('gateway');
  const cli = (args: string[]) => run('podman', ['exec', gateway, 'node', ...TYPESCRIPT_NODE_ARGS, 'src/entry/cli.ts', ...args, '--json'], { env: podmanEnv });
  await cli(['team', 'create', '--name', 'compose-test', '--concurrency', '4', '--credits', '100000']);
  const issued = JSON.parse(await cli(['key', 'create', '--team', 'compose-test', '--name', 'compose-test'])) as { key?: string; data?: { key: string } };
  const g: Gateway = { url: gatewayUrl, key: issued.key ?? issued.data!.key };
  const fixtures = 'http://fixtures:8080';

  const sessionId = await timed('browser session with node, python and bash executes', () => browserSession(g, fixtures));
  say(`session ${sessionId}`);
  const results = await timed('search through the fake SearXNG', () => searchWeb(g));
  say(`search: ${results} web results`);

  // A crawl's URL needs a top-level domain or an IP address: the fixture container's.
  const fixturesIp = (
    await run('podman', ['inspect', '--format', '{{range .NetworkSettings.Networks}}{{.IPAddress}} {{end}}', await container('fixtures')], { env: podmanEnv })
  )
    .trim()
    .split(' ')[0];
  const site = `http://${fixturesIp}:8080`;
  const crawlId = await startCrawl(g, `${site}/`, FIXTURE_PAGES);
  const crawlStarted = Date.now();
  await until(`${KILL_AFTER_PAGES} pages of crawl ${crawlId}`, 300_000, async () => {
    const p = await crawlProgress(g, crawlId);
    if (p.status !== 'scraping') throw new Error(`crawl ${crawlId} is ${p.status} before the kill (${p.completed} pages): make the fixture site slower`);
    return p.completed >= KILL_AFTER_PAGES ? p : undefined;
  }).then((p) => say(`crawl ${crawlId}: ${p.completed}/${p.total} pages; killing worker #1 and browser-host #1`));
  await run('podman', ['kill', await container('worker', 1), await container('browser-host', 1)], { env: podmanEnv });
  const done = await timed('crawl to completion after the kill', () =>
    until(`crawl ${crawlId} to finish`, 600_000, async () => {
      const p = await crawlProgress(g, crawlId);
      return p.status === 'scraping' ? undefined : p;
    }),
  );
  timings.push(['crawl, start to end', (Date.now() - crawlStarted) / 1000]);
  if (done.status !== 'completed') throw new Error(`crawl ${crawlId} ended ${done.status}`);
  const urls = await crawlPages(g, crawlId);
  const expected = [`${site}/`, ...Array.from({ length: FIXTURE_PAGES - 1 }, (_, i) => `${site}/p/${i + 1}`)];
  const missing = expected.filter((u) => !urls.includes(u));
  const twice = urls.filter((u, i) => urls.indexOf(u) !== i);
  if (urls.length !== FIXTURE_PAGES || missing.length > 0 || twice.length > 0) {
    throw new Error(
      `crawl ${crawlId}: ${urls.length} pages for ${FIXTURE_PAGES}; missing ${missing.slice(0, 5).join(', ')}; twice ${twice.slice(0, 5).join(', ')}`,
    );
  }
  say(`crawl ${crawlId}: completed with each of the ${FIXTURE_PAGES} pages exactly once`);
} catch (err) {
  failed = true;
  console.error(`[compose-test] FAILED: ${(err as Error).stack ?? err}`);
  if (api) {
    for (const service of ['gateway', 'worker', 'browser-host', 'fixtures', 'temporal', 'postgres']) {
      const logs = await compose(['logs', '--no-color', '--tail', '30', service]).catch((e: Error) => e.message);
      console.error(`--- ${service} (last lines) ---\n${logs}`);
    }
  }
} finally {
  await timed('tear down', async () => {
    await healthchecks?.stop();
    if (api) await compose(['down', '-v', '-t', '1']).catch((err: Error) => console.error(err.message));
    api?.process.kill('SIGTERM');
    if (!keepImages) {
      const built = [...(await imageIds(podmanEnv))].filter((id) => !imagesBefore.has(id));
      const base = (await run('podman', ['images', '-q', '--no-trunc', BASE_IMAGE], { env: podmanEnv })).trim();
      const ours = built.filter((id) => id !== base);
      if (ours.length > 0) await run('podman', ['rmi', '-f', ...ours], { env: podmanEnv, allowFailure: true });
    }
    const problems = await restoreHostNetwork(network);
    for (const p of problems) console.error(`[compose-test] left behind: ${p}`);
    if (problems.length > 0) failed = true;
    rmSync(workDir, { recursive: true, force: true });
  });
  console.log('[compose-test] timings (s):');
  for (const [what, seconds] of timings) console.log(`  ${seconds.toFixed(1).padStart(7)}  ${what}`);
  console.log(`  ${((Date.now() - started) / 1000).toFixed(1).padStart(7)}  total`);
  console.log(failed ? '[compose-test] FAILED' : '[compose-test] passed');
  process.exit(failed ? 1 : 0);
}
