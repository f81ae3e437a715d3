// The JS SDK's body-sending methods, called with arguments generated from the
// SDK's own types (js-arbitraries.ts) against a real gateway, as a team with no
// credits: a request the gateway accepts is answered 402 (the credit check comes
// after every check of the request, docs/api/conventions.md), so nothing is
// crawled, and a request it refuses is answered 4xx before. The oracle (the
// coverage rows) says which of the two each request must get.
import Firecrawl, { SdkError } from '@mendable/firecrawl-js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsSdkSurface } from '../coverage/js-surface.ts';
import {
  agentArgs,
  batchScrapeOptions,
  crawlOptions,
  extractArgs,
  mapOptions,
  parseOptions,
  publicUrl,
  scrapeOptions,
  searchOptions,
} from './js-arbitraries.ts';
import { createOracle, namesARefusedRow, type Verdict } from './oracle.ts';

export interface AcceptanceTarget {
  baseUrl: string;
  /** A key of a team with no credits (and every team flag on). */
  poorKey: string;
}

interface BodyMethod<A> {
  /** The SDK types whose fields the judged argument holds (the coverage rows' groups). */
  owners: string[];
  args: fc.Arbitrary<A>;
  send(client: Firecrawl, args: A): Promise<unknown>;
  /** The argument the oracle reads. */
  judged(args: A): object;
}

const method = <A>(m: BodyMethod<A>) => m as BodyMethod<unknown>;
const query = fc.constantFrom('pricing', 'site:example.com docs', '"exact words" -minus', 'intitle:guide');

export const JS_BODY_METHODS: Record<string, BodyMethod<unknown>> = {
  scrape: method({
    owners: ['ScrapeOptions'],
    args: fc.tuple(publicUrl, scrapeOptions),
    send: (c, [url, o]) => c.scrape(url, o),
    judged: ([, o]) => o,
  }),
  startCrawl: method({
    owners: ['CrawlOptions'],
    args: fc.tuple(publicUrl, crawlOptions),
    send: (c, [url, o]) => c.startCrawl(url, o),
    judged: ([, o]) => o,
  }),
  startBatchScrape: method({
    owners: ['BatchScrapeOptions'],
    args: fc.tuple(fc.array(publicUrl, { minLength: 1, maxLength: 3 }), batchScrapeOptions),
    send: (c, [urls, o]) => c.startBatchScrape(urls, o),
    judged: ([, o]) => o,
  }),
  map: method({ owners: ['MapOptions'], args: fc.tuple(publicUrl, mapOptions), send: (c, [url, o]) => c.map(url, o), judged: ([, o]) => o }),
  search: method({ owners: ['SearchRequest'], args: fc.tuple(query, searchOptions), send: (c, [q, o]) => c.search(q, o), judged: ([, o]) => o }),
  startExtract: method({ owners: ['prepareExtractPayload(args)'], args: extractArgs, send: (c, a) => c.startExtract(a), judged: (a) => a }),
  startAgent: method({ owners: ['prepareAgentPayload(args)'], args: agentArgs, send: (c, a) => c.startAgent(a), judged: (a) => a }),
  parse: method({
    owners: ['ParseOptions', 'ScrapeOptions'],
    args: parseOptions,
    send: (c, o) => c.parse({ data: Buffer.from('<html><body><h1>Hello</h1><p>World</p></body></html>'), filename: 'page.html', contentType: 'text/html' }, o),
    judged: (o) => o,
  }),
};

export interface Outcome {
  kind: 'accepted' | 'refused' | 'not sent';
  status?: number;
  code?: string;
  message: string;
}

/**
 * Whether the gateway's answer is the one the oracle asks for; the problem in words otherwise. A request
 * with threatProtection may also be answered by its policy: 403 `unsafe_domain_blocked` for a URL the
 * policy blocks (a scanning mode with failurePolicy "closed" blocks every URL the whitelist does not name).
 */
export function outcomeProblem(outcome: Outcome, verdict: Verdict): string | undefined {
  if (outcome.kind === 'not sent') return undefined;
  const byPolicy = outcome.status === 403 && outcome.code === 'unsafe_domain_blocked' && verdict.used.some((u) => /\.threatProtection$/.test(u.row));
  if (verdict.refusedBy.length === 0) {
    return outcome.status === 402 || byPolicy ? undefined : `refused a request whose every field is accepted (${outcome.status}: ${outcome.message})`;
  }
  const rows = verdict.refusedBy.map((u) => u.row).join(', ');
  if (outcome.status === 402) return `accepted a request with refused rows (${rows})`;
  // A cloud service is refused 501 CLOUD_SERVICE_NOT_OFFERED (docs/api/cloud-services.md); anything else not offered, 400.
  const cloud = verdict.refusedBy.some((u) => u.status === 'cloud') && outcome.status === 501 && outcome.code === 'CLOUD_SERVICE_NOT_OFFERED';
  const refusal = cloud || (outcome.status !== undefined && outcome.status >= 400 && outcome.status < 500);
  if (!refusal) return `answered ${outcome.status} (${outcome.message}) for refused rows (${rows})`;
  if (!namesARefusedRow(outcome.message, verdict)) return `refused, but the message does not name ${rows}: ${outcome.message}`;
  return undefined;
}

export async function sendThrough(client: Firecrawl, m: BodyMethod<unknown>, args: unknown): Promise<Outcome> {
  try {
    await m.send(client, args);
    return { kind: 'accepted', status: 200, message: 'a team without credits got an answer' };
  } catch (err) {
    // The SDK's own checks throw before anything is sent: no status.
    if (!(err instanceof SdkError) || err.status === undefined) return { kind: 'not sent', message: (err as Error).message };
    return { kind: err.status === 402 ? 'accepted' : 'refused', status: err.status, code: err.code, message: err.message };
  }
}

export function jsAcceptanceSuite(opts: { runs: number; target: () => AcceptanceTarget; seed?: number; timeoutMs?: number }): void {
  const oracle = createOracle(jsSdkSurface());
  describe('requests the JS SDK builds from its own types', () => {
    for (const [name, m] of Object.entries(JS_BODY_METHODS)) {
      it(`${name}: accepted, or refused naming a field the coverage table refuses`, { timeout: opts.timeoutMs ?? 120_000 }, async () => {
        const { baseUrl, poorKey } = opts.target();
        // maxRetries counts attempts: 1 sends each request once.
        const client = new Firecrawl({ apiKey: poorKey, apiUrl: baseUrl, maxRetries: 1 });
        const seen = { accepted: 0, refused: 0, 'not sent': 0 };
        await fc.assert(
          fc.asyncProperty(m.args, async (args) => {
            const verdict = oracle.judge(m.owners, m.judged(args) as Record<string, unknown>);
            const outcome = await sendThrough(client, m, args);
            seen[outcome.kind] += 1;
            const problem = outcomeProblem(outcome, verdict);
            if (problem) throw new Error(`${name}(${JSON.stringify(args)}): ${problem}`);
          }),
          // Shrinking re-sends requests one by one: bounded, so a failure reports within the test's time.
          {
            numRuns: opts.runs,
            interruptAfterTimeLimit: (opts.timeoutMs ?? 120_000) / 2,
            markInterruptAsFailure: true,
            ...(opts.seed !== undefined && { seed: opts.seed }),
          },
        );
        // Not vacuous: most requests reached the gateway, and some were accepted.
        expect(seen.accepted, JSON.stringify(seen)).toBeGreaterThan(0);
        expect(seen['not sent'], JSON.stringify(seen)).toBeLessThan(opts.runs / 2);
      });
    }
  });
}
