// The batch engine under random mixes, with fast-check driving every await: the
// real run-batch composition, HTTP lanes, file loads and batch leases, against an
// in-memory frontier, fake page loads (HTTP, script-rendered, PDF, downloads,
// slow and failing pages) and a team's slots under the PostgreSQL rules
// (support/memory-team-slots.ts). Teams of limit 1 to 8 run up to three crawls at
// once, each a loop of batches as the job workflow runs them; some are cancelled,
// and some batches give their browser to another crawl mid-way (a yield).
// Checked at every step: no team holds more than its limit, no crawl more than
// its share, no page is handled twice. At the end: every crawl that was not
// cancelled handled each page it found exactly once, within a bounded number of
// steps (a wedge never gets there), and every slot is free again.
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { BatchLeases } from '../../../src/jobs/batch/batch-leases.ts';
import { BatchTally } from '../../../src/jobs/batch/batch-tally.ts';
import type { ClaimedTarget } from '../../../src/jobs/batch/frontier-source.ts';
import type { LoadExtras, PageHandler } from '../../../src/jobs/batch/page-handler.ts';
import { lanesFirst, type Rendering } from '../../../src/jobs/batch/route-target.ts';
import { runBatch, type BatchLoaders, type BatchSource, type BrowserHooks } from '../../../src/jobs/batch/run-batch.ts';
import type { ScrapeTarget } from '../../../src/page/browser-scraper.ts';
import type { PageLoad } from '../../../src/page/page-load.ts';
import { MemoryTeamSlots } from '../../support/memory-team-slots.ts';

type Kind = 'html' | 'script' | 'pdf' | 'download' | 'fail' | 'slow';

interface PageSpec {
  kind: Kind;
  links: number[];
}

interface CrawlSpec {
  pages: PageSpec[];
  rendering: Rendering;
  concurrency: number;
  batchSize: number;
  /** Cancelled at this step of the run. */
  cancelAt?: number;
  /** At this step its running batch is asked to give its browser to another crawl (fair share). */
  yieldAt?: number;
}

interface TeamSpec {
  limit: number;
  crawls: CrawlSpec[];
}

/** Far more than any of these mixes needs to finish; a run that does not finish within it is wedged. */
const MAX_STEPS = 40_000;

const crawlArb = (limit: number) =>
  fc.integer({ min: 1, max: 10 }).chain((n) =>
    fc.record({
      pages: fc.array(
        fc.record({
          kind: fc.constantFrom<Kind>('html', 'html', 'html', 'script', 'pdf', 'pdf', 'download', 'fail', 'slow'),
          links: fc.array(fc.integer({ min: 0, max: n - 1 }), { maxLength: 3 }),
        }),
        { minLength: n, maxLength: n },
      ),
      rendering: fc.constantFrom<Rendering>('auto', 'auto', 'http', 'browser'),
      concurrency: fc.integer({ min: 1, max: limit }),
      batchSize: fc.integer({ min: 2, max: 12 }),
      cancelAt: fc.option(fc.integer({ min: 0, max: 400 }), { nil: undefined }),
      yieldAt: fc.option(fc.integer({ min: 0, max: 400 }), { nil: undefined }),
    }),
  );

// Small teams are where slots run out, so they come up most.
const teamArb = fc
  .oneof(fc.integer({ min: 1, max: 2 }), fc.integer({ min: 1, max: 8 }))
  .chain((limit) => fc.record({ limit: fc.constant(limit), crawls: fc.array(crawlArb(limit), { minLength: 1, maxLength: 3 }) }));

const urlOf = (crawl: number, page: number, kind: Kind) => `https://site-${crawl}.test/p/${page}${kind === 'pdf' ? '.pdf' : ''}`;
const pageOf = (target: { key: string }) => Number(target.key.split(':')[1]);

/** One crawl's frontier in memory: each page found once, claimed by one batch at a time. */
class MemoryFrontier {
  readonly state = new Map<number, 'queued' | 'claimed' | 'done'>([[0, 'queued']]);
  readonly handled = new Map<number, 'stored' | 'failed'>();

  constructor(
    readonly id: number,
    readonly spec: CrawlSpec,
  ) {}

  key(page: number) {
    return `${this.id}:${page}`;
  }

  queued() {
    return [...this.state].filter(([, s]) => s === 'queued').map(([p]) => p);
  }

  settle(page: number, how: 'stored' | 'failed') {
    if (this.handled.has(page)) throw new Error(`page ${page} of crawl ${this.id} handled twice`);
    this.handled.set(page, how);
    this.state.set(page, 'done');
    if (how === 'stored') for (const link of this.spec.pages[page].links) if (!this.state.has(link)) this.state.set(link, 'queued');
  }
}

function batchSource(frontier: MemoryFrontier, tally: BatchTally, leases: BatchLeases, tick: (label: string) => Promise<unknown>): BatchSource {
  return {
    async claim(room) {
      await tick('claim');
      if (tally.claimed >= frontier.spec.batchSize || leases.yielding) return null;
      const pages = frontier.queued().slice(0, Math.min(room, frontier.spec.batchSize - tally.claimed));
      for (const p of pages) frontier.state.set(p, 'claimed');
      tally.claimed += pages.length;
      tally.todo += pages.length;
      return pages.map((p): ClaimedTarget => ({ url: urlOf(frontier.id, p, frontier.spec.pages[p].kind), key: frontier.key(p), depth: 0 }));
    },
    async exhausted() {
      await tick('counts');
      return frontier.queued().length === 0 && tally.inFlight === 0;
    },
    async giveBack(target) {
      frontier.state.set(pageOf(target), 'queued');
      tally.todo--;
    },
  };
}

function pageHandler(frontier: MemoryFrontier, tally: BatchTally, tick: (label: string) => Promise<unknown>): PageHandler {
  return {
    async store(target: ScrapeTarget, load: PageLoad, extras: LoadExtras) {
      await tick('store');
      if (load.rawHtml === 'script' && extras.path === 'http' && frontier.spec.rendering === 'auto') return { needsBrowser: 'script-rendered' };
      frontier.settle(pageOf(target), 'stored');
      tally.stored();
    },
    async fail(target: ScrapeTarget) {
      await tick('store failure');
      frontier.settle(pageOf(target), 'failed');
      tally.pageFailed();
    },
  };
}

const loadOf = (target: ScrapeTarget, kind: Kind): PageLoad => ({ finalUrl: target.url, statusCode: 200, rawHtml: kind === 'script' ? 'script' : 'html' });

/** Chromium as the batch sees it: `concurrency` tabs, each under a slot while it loads, refilled as they drain. */
async function fakeBrowser(
  frontier: MemoryFrontier,
  targets: ScrapeTarget[],
  hooks: BrowserHooks,
  signal: AbortSignal,
  tick: (label: string) => Promise<unknown>,
) {
  const queue = [...targets];
  let exhausted = !hooks.more;
  let refilling: Promise<void> | undefined;
  const refill = () =>
    (refilling ??= (async () => {
      const supply = await hooks.more!(2 * frontier.spec.concurrency);
      exhausted = supply.exhausted;
      queue.push(...supply.targets);
      if (supply.targets.length === 0 && !exhausted) await tick('browser poll');
    })().finally(() => (refilling = undefined)));
  const tab = async () => {
    for (;;) {
      if (signal.aborted) return;
      const target = queue.shift();
      if (!target) {
        if (exhausted && !refilling) return;
        await refill();
        continue;
      }
      if (hooks.stopOpening()) {
        await hooks.returned(target);
        continue;
      }
      const kind = frontier.spec.pages[pageOf(target)].kind;
      const slot = await hooks.slot(signal);
      try {
        await tick(kind === 'slow' ? 'slow render' : 'render');
        if (kind === 'slow') await tick('slow render, later');
        if (kind === 'download' || kind === 'pdf') {
          await slot.release();
          await hooks.download(target);
        } else if (kind === 'fail') await hooks.failure(target, 'net::ERR_FAILED');
        else await hooks.page(target, loadOf(target, 'html'), { queuedMs: slot.waitedMs });
      } finally {
        await slot.release();
      }
    }
  };
  await Promise.all(Array.from({ length: frontier.spec.concurrency }, tab));
}

function fakeLoaders(frontier: MemoryFrontier, signal: AbortSignal, tick: (label: string) => Promise<unknown>): BatchLoaders {
  const kindOf = (target: ScrapeTarget) => frontier.spec.pages[pageOf(target)].kind;
  return {
    async overHttp(target) {
      const kind = kindOf(target);
      await tick(`http ${kind}`);
      if (kind === 'slow') await tick('http slow, later');
      if (signal.aborted) throw signal.reason;
      if (kind === 'fail') return frontier.spec.rendering === 'http' ? { failed: 'ECONNRESET' } : { browser: 'the HTTP fetch failed' };
      if (kind === 'download')
        return frontier.spec.rendering === 'http' ? { file: 'content type application/zip' } : { browser: 'content type application/zip' };
      return { load: loadOf(target, kind) };
    },
    async file(target) {
      await tick('file');
      if (signal.aborted) throw signal.reason;
      return { finalUrl: target.url, statusCode: 200, pdf: { markdown: 'pdf', html: '', numPages: 1, metadata: {} } };
    },
    browser: (targets, hooks) => fakeBrowser(frontier, targets, hooks, signal, tick),
  };
}

interface RunningCrawl {
  team: number;
  frontier: MemoryFrontier;
  abort: AbortController;
  leases?: BatchLeases;
  done: boolean;
  error?: unknown;
}

async function runMix(teams: TeamSpec[], s: fc.Scheduler): Promise<void> {
  const tick = (label: string) => s.schedule(Promise.resolve(label), label);
  const sleep = (_ms: number, signal: AbortSignal) =>
    new Promise<void>((resolve) => {
      void s.schedule(Promise.resolve('slot poll'), 'slot poll').then(() => resolve());
      signal.addEventListener('abort', () => resolve(), { once: true });
    });
  const slots = teams.map((t) => new MemoryTeamSlots(t.limit));
  const crawls: RunningCrawl[] = [];
  teams.forEach((team, t) =>
    team.crawls.forEach((spec) => crawls.push({ team: t, frontier: new MemoryFrontier(crawls.length, spec), abort: new AbortController(), done: false })),
  );

  // As the job workflow does: batch after batch while the frontier has URLs, each batch with leases of its own.
  const runCrawl = async (c: RunningCrawl) => {
    const group = `crawl-${c.frontier.id}`;
    const team = slots[c.team];
    team.running.add(group);
    const signal = c.abort.signal;
    try {
      for (let n = 0; !signal.aborted; n++) {
        const tally = new BatchTally();
        // Asked (by the driver, at yieldAt) to give the browser up, it is told to yield once.
        const browser = {
          renew: async () => undefined,
          shouldYield: async () => (c.frontier.spec.yieldAt !== undefined && n === 0 ? 'another-crawl' : undefined),
        };
        const leases = new BatchLeases({ holderPrefix: `${group}:${n}`, slots: team.store(group), browser, pollMs: { first: 1, max: 8 }, sleep });
        c.leases = leases;
        const rules = { cacheOnly: false, rendering: c.frontier.spec.rendering, scriptedHost: () => false };
        try {
          await runBatch({
            source: batchSource(c.frontier, tally, leases, tick),
            cached: async () => new Map(),
            rules,
            handler: pageHandler(c.frontier, tally, tick),
            leases,
            loaders: fakeLoaders(c.frontier, signal, tick),
            concurrency: c.frontier.spec.concurrency,
            lanesFirst: lanesFirst(rules),
            fixedUrls: false,
            onScripted: () => undefined,
            pollMs: 1,
            signal,
            log: { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined, child: () => undefined as never },
          });
        } catch (err) {
          if (!signal.aborted) throw err;
        } finally {
          await leases.close();
        }
        if (signal.aborted) break;
        if (tally.handled < tally.todo) throw new Error(`a batch of crawl ${c.frontier.id} ended with ${tally.todo - tally.handled} pages unhandled`);
        if (c.frontier.queued().length === 0) break;
      }
    } finally {
      team.running.delete(group);
    }
  };

  for (const c of crawls) {
    runCrawl(c).then(
      () => (c.done = true),
      (error) => ((c.error = error), (c.done = true)),
    );
  }

  const check = () => {
    slots.forEach((team, t) => {
      expect(team.holders.size, `team ${t} holds more than its limit`).toBeLessThanOrEqual(team.limit);
      for (const c of crawls.filter((c) => c.team === t && !c.done)) {
        expect(team.heldBy(`crawl-${c.frontier.id}`), `crawl ${c.frontier.id} holds more than its share`).toBeLessThanOrEqual(team.share());
      }
    });
  };

  let step = 0;
  for (; step < MAX_STEPS && crawls.some((c) => !c.done); step++) {
    for (const c of crawls) {
      if (c.frontier.spec.cancelAt === step) c.abort.abort(new Error('cancelled'));
      if (c.frontier.spec.yieldAt === step) void c.leases?.checkYield({ sliceUsed: true, idle: false });
    }
    if (s.count() > 0) await s.waitOne();
    // The lanes' refill poll is a real timer: the loop must give timers their turn, or other crawls' scheduled work starves them.
    await new Promise((r) => setImmediate(r));
    if (s.count() === 0) await new Promise((r) => setTimeout(r, 1));
    check();
  }

  const stuck = crawls.filter((c) => !c.done);
  if (stuck.length > 0) {
    const state = stuck.map((c) => ({
      crawl: c.frontier.id,
      team: c.team,
      frontier: Object.fromEntries(c.frontier.state),
      leases: c.leases?.state(),
      teamHolders: [...slots[c.team].holders.keys()],
    }));
    throw new Error(`wedged: ${stuck.length} crawls unfinished after ${step} steps: ${JSON.stringify(state)}`);
  }
  for (const c of crawls) if (c.error) throw c.error;
  slots.forEach((team, t) => expect([...team.holders.keys()], `team ${t} still holds slots`).toEqual([]));
  for (const c of crawls.filter((c) => !c.abort.signal.aborted)) {
    const states = [...c.frontier.state.values()];
    expect(
      states.every((st) => st === 'done'),
      `crawl ${c.frontier.id} left ${JSON.stringify(Object.fromEntries(c.frontier.state))}`,
    ).toBe(true);
    expect(c.frontier.handled.size).toBe(c.frontier.state.size);
  }
}

it('no mix of teams, crawls, page kinds, timings, yields and cancels wedges, breaks a limit or loses a page', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(teamArb, { minLength: 1, maxLength: 3 }), fc.scheduler(), async (teams, s) => {
      await runMix(teams, s);
    }),
    { numRuns: 300, interruptAfterTimeLimit: 25_000, markInterruptAsFailure: false, endOnFailure: true },
  );
}, 120_000);
