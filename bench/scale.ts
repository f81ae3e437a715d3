// `npm run bench:scale`: issue 43's growth curves. Part 1 (scale-crawl.ts): one
// crawl of SCALE_PAGES (1,000,000) pages with a row of figures every SCALE_STEP
// (50,000) pages, the SDK's walk of every `next` link and the purge. Part 2
// (scale-jobs.ts): a thousand jobs at once against the same jobs in groups of ten.
// SCALE_PARTS (crawl,jobs) picks the parts. Each part prints its table and writes it
// with an SVG chart to SCALE_OUTPUT (bench/out): scale-crawl.{md,svg,json},
// scale-jobs.{md,svg}. Not a test: the figures depend on the machine.
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/platform/log.ts';
import { runBench } from './run-bench.ts';
import { crawlPart } from './scale-crawl.ts';
import { CRAWL_STEP_HEADER, crawlStepLine } from './scale-figures.ts';
import { jobsPart } from './scale-jobs.ts';

function setting(name: string, fallback: number, { zero = false } = {}): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < (zero ? 0 : 1)) throw new Error(`${name} must be a ${zero ? 'non-negative' : 'positive'} integer, not "${raw}"`);
  return value;
}

const PARTS = (process.env.SCALE_PARTS ?? 'crawl,jobs').split(',').map((p) => p.trim());
const OUTPUT = process.env.SCALE_OUTPUT || join(import.meta.dirname, 'out');

const log = createLogger('warn', { process: 'bench' });

function header(command: string): string {
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');
  return `${new Date().toISOString()}, \`${command}\`, load average at the end ${load}`;
}

async function main() {
  const config = loadConfig();
  mkdirSync(OUTPUT, { recursive: true });
  const env = Object.entries(process.env)
    .filter(([k]) => k.startsWith('SCALE_'))
    .map(([k, v]) => `${k}=${v} `)
    .join('');
  const command = `${env}npm run bench:scale`;
  if (PARTS.includes('crawl')) {
    const pages = setting('SCALE_PAGES', 1_000_000);
    const { steps, summary, svg } = await crawlPart(config, log, {
      pages,
      step: setting('SCALE_STEP', 50_000),
      concurrency: setting('SCALE_CONCURRENCY', 8),
      otherPages: setting('SCALE_OTHER_PAGES', 2_000),
    });
    const table = [header(command), '', CRAWL_STEP_HEADER, ...steps.map(crawlStepLine), '', ...summary.map((l) => `- ${l}`)].join('\n');
    writeFileSync(join(OUTPUT, 'scale-crawl.md'), `${table}\n`);
    writeFileSync(join(OUTPUT, 'scale-crawl.json'), `${JSON.stringify({ command, steps, summary }, null, 2)}\n`);
    writeFileSync(join(OUTPUT, 'scale-crawl.svg'), svg);
    console.log(`part 1 written to ${join(OUTPUT, 'scale-crawl.{md,json,svg}')}`);
  }
  if (PARTS.includes('jobs')) {
    const { summary, svg } = await jobsPart(config, log, {
      scrapes: setting('SCALE_JOBS', 1_000, { zero: true }),
      crawls: setting('SCALE_CRAWLS', 200, { zero: true }),
      batches: setting('SCALE_BATCHES', 100, { zero: true }),
      sessions: setting('SCALE_SESSIONS', 20, { zero: true }),
      teams: setting('SCALE_TEAMS', 50),
      teamLimit: setting('SCALE_TEAM_LIMIT', 4),
      startSeconds: setting('SCALE_START_SECONDS', 0, { zero: true }),
    });
    writeFileSync(join(OUTPUT, 'scale-jobs.md'), `${[header(command), '', ...summary.map((l) => `- ${l}`)].join('\n')}\n`);
    writeFileSync(join(OUTPUT, 'scale-jobs.svg'), svg);
    console.log(`part 2 written to ${join(OUTPUT, 'scale-jobs.{md,svg}')}`);
  }
}

runBench(main);
