// redactPII, threatProtection and auditMetadata through the real gateway and worker,
// with the fake model (test/support/fake-llm.ts) finding names and places: no
// personal data in a scrape's answer, a crawl's pages, the stored documents, the
// search index or the webhook payloads; a failing model fails the page; threat
// protection keeps a crawl from a blacklisted host's links and a batch from its
// URL, failurePolicy open and closed without a scanner; auditMetadata in the
// activity listing; the JS SDK sending all three.
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from '../support/fake-llm.ts';
import { page, startFixtureSite, type FixtureSite } from '../support/fixture-site.ts';
import { contractProblems, type RecordedResponse } from '../support/openapi-responses.ts';
import { startHarness, waitFor, waitForCrawl, type Harness } from '../support/harness.ts';
import { runPythonSdk } from '../support/python-sdk.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

let h: Harness;
let llm: FakeLlm;
let site: FixtureSite;
let receiver: WebhookReceiver;
const recorded: RecordedResponse[] = [];

/** Everything personal the fixture pages hold; none of it may reach the caller. */
const PII = ['Jane', 'Doe', 'Springfield', 'jane.doe@example.com', '555-123-4567', '4111 1111 1111 1111', 'AKIAIOSFODNN7EXAMPLE', 'Rick Deckard'];

function expectNoPii(value: unknown, where: string): void {
  const text = JSON.stringify(value);
  for (const pii of PII) expect(text, `${where} holds ${pii}`).not.toContain(pii);
}

beforeAll(async () => {
  llm = await startFakeLlm();
  h = await startHarness({ llm: { baseUrl: llm.url, model: 'fake', timeoutMs: 3000 }, recordResponses: recorded });
  await h.startWorker();
  receiver = await startWebhookReceiver();
  site = await startFixtureSite({
    '/': page(
      'Jane Doe',
      `<h1>Contact</h1><p>Jane Doe lives in Springfield. Mail <a href="mailto:jane.doe@example.com">jane.doe@example.com</a> or call 555-123-4567.</p>
       <p>Card 4111 1111 1111 1111, key AKIAIOSFODNN7EXAMPLE.</p>
       <a href="/about">About</a> <a href="http://localhost:1/secret">Elsewhere</a> <a href="http://files.example.zip/x">Zip</a>`,
      '<meta name="description" content="Write to jane.doe@example.com">',
    ),
    '/about': page('About', '<h1>About us</h1><p>Founded by Rick Deckard in Springfield. Phone 555-123-4567.</p>'),
  });
});

afterAll(async () => {
  await site?.close();
  await receiver?.close();
  await h?.stop();
  await llm?.close();
});

/** What the job's page rows hold, as stored. */
async function storedPages(crawlId: string) {
  const rows = await h.db.jobPage.findMany({ where: { jobId: crawlId }, select: { url: true, error: true, document: true } });
  expect(rows.length).toBeGreaterThan(0);
  return rows;
}

async function creditsLeft(key: string): Promise<number> {
  return (await (await h.api('/v2/team/credit-usage', { key })).json()).data.remainingCredits;
}

describe('redactPII', () => {
  it('hands a scrape back with no personal data in any format, stores it redacted, and charges 4 credits more', async () => {
    const team = await h.newTeam({ credits: 100 });
    const formats = [
      'markdown',
      'html',
      'rawHtml',
      'links',
      'summary',
      { type: 'json', prompt: 'the contact', schema: { type: 'object', properties: { name: { type: 'string' } } } },
    ];
    const res = await h.api('/v2/scrape', { method: 'POST', key: team.apiKey, json: { url: `${site.url}/`, maxAge: 0, formats, redactPII: true } });
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    const doc = body.data;
    expectNoPii(doc, 'the answer');
    expect(doc.markdown).toContain('<PERSON> lives in <LOCATION>. Mail [<EMAIL>](mailto:<EMAIL>) or call <PHONE>.');
    expect(doc.markdown).toContain('Card <FINANCIAL>, key <SECRET>.');
    expect(doc.html).toContain('&lt;EMAIL&gt;');
    expect(doc.metadata.description).toBe('Write to <EMAIL>');
    expect(doc.metadata.sourceURL).toBe(`${site.url}/`);
    // The stored copy (GET /v2/scrape/{id}, the page row) is the redacted one.
    const stored = await (await h.api(`/v2/scrape/${doc.metadata.scrapeId}`, { key: team.apiKey })).json();
    expectNoPii(stored, 'GET /v2/scrape/{id}');
    expectNoPii(await storedPages(doc.metadata.scrapeId), 'the page row');
    // 1 for the page, 4 for json, 4 for the redaction.
    expect(await creditsLeft(team.apiKey)).toBe(100 - 9);
    const redactionCalls = llm.requests.filter((r) => r.messages[0]!.content.startsWith('You find personal data'));
    expect(redactionCalls.length).toBeGreaterThan(0);
  });

  it('redacts a crawl: status pages, stored documents, webhook payloads; nothing goes to the search index', async () => {
    const team = await h.newTeam({ credits: 100 });
    const res = await h.api('/v2/crawl', {
      method: 'POST',
      key: team.apiKey,
      json: {
        url: `${site.url}/`,
        limit: 5,
        scrapeOptions: { maxAge: 0, formats: ['markdown', 'links'], redactPII: { mode: 'aggressive', replaceStyle: 'mask' } },
        webhook: { url: receiver.url, events: ['page', 'completed'] },
      },
    });
    const { id } = await res.json();
    expect(res.status).toBe(200);
    const done = await waitForCrawl(h, id, 120_000, team.apiKey);
    expect(done.status).toBe('completed');
    expect(done.data.map((d) => d.metadata.sourceURL).sort()).toEqual([`${site.url}/`, `${site.url}/about`]);
    expectNoPii(done.data, 'GET /v2/crawl/{id}');
    expect(done.data.find((d) => d.metadata.sourceURL.endsWith('/about')).markdown).toContain('Founded by ************ in ***********.');
    expectNoPii(await storedPages(id), 'the page rows');
    expect(await h.db.searchPage.count({ where: { teamId: team.teamId } })).toBe(0);
    const deliveries = await waitFor(
      'the crawl.completed delivery',
      async () => {
        const mine = receiver.deliveries.filter((d) => d.payload.id === id);
        return mine.some((d) => d.payload.type === 'crawl.completed') ? mine : undefined;
      },
      30_000,
    );
    expect(deliveries.filter((d) => d.payload.type === 'crawl.page').length).toBeGreaterThanOrEqual(2);
    expectNoPii(
      deliveries.map((d) => d.raw.toString()),
      'the webhook payloads',
    );
  });

  it('fails the page when the model fails, and never hands it out unredacted', async () => {
    const team = await h.newTeam({ credits: 100 });
    llm.script = (req) => (req.messages[0]!.content.startsWith('You find personal data') ? 'no JSON here' : undefined);
    try {
      const res = await h.api('/v2/scrape', {
        method: 'POST',
        key: team.apiKey,
        json: { url: `${site.url}/about`, maxAge: 0, redactPII: { entities: ['PERSON'] } },
      });
      const body = await res.json();
      expect(res.status).toBe(500);
      expect(body.error).toMatch(
        /redactPII: the model that finds PERSON failed: the answer is not valid JSON \(after one retry\); the page is not handed out unredacted/,
      );
      expectNoPii(body, 'the failure');
      const job = await h.db.job.findFirstOrThrow({ where: { teamId: team.teamId } });
      expectNoPii(await storedPages(job.id), 'the failed page row');
      expect(await creditsLeft(team.apiKey)).toBe(100);
    } finally {
      llm.script = undefined;
    }
  });

  it('refuses a screenshot with redaction, and mode fast with PERSON named, before any job', async () => {
    const res = await h.api('/v2/scrape', { method: 'POST', json: { url: `${site.url}/`, formats: ['screenshot'], redactPII: true } });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatch(/^redactPII: redactPII cannot be combined with the screenshot format/);
    const fast = await h.api('/v2/crawl', {
      method: 'POST',
      json: { url: `${site.url}/`, scrapeOptions: { redactPII: { mode: 'fast', entities: ['PERSON'] } } },
    });
    expect(fast.status).toBe(400);
  });
});

describe('threatProtection', () => {
  it('keeps a crawl from links to blacklisted hosts and blocked TLDs: listed as errors naming threat protection, never fetched', async () => {
    const team = await h.newTeam({ credits: 100 });
    const res = await h.api('/v2/crawl', {
      method: 'POST',
      key: team.apiKey,
      json: {
        url: `${site.url}/`,
        limit: 10,
        allowExternalLinks: true,
        scrapeOptions: { maxAge: 0, threatProtection: { mode: 'manual-only', blacklist: ['localhost'], blockedTlds: ['zip'] } },
      },
    });
    const { id } = await res.json();
    const done = await waitForCrawl(h, id, 120_000, team.apiKey);
    expect(done.status).toBe('completed');
    expect(done.data.map((d) => d.metadata.sourceURL).sort()).toEqual([`${site.url}/`, `${site.url}/about`]);
    expect(done.total).toBe(2);
    const errors = await (await h.api(`/v2/crawl/${id}/errors`, { key: team.apiKey })).json();
    expect(errors.errors.map((e: { url: string; error: string }) => [e.url, e.error]).sort()).toEqual([
      [
        'http://files.example.zip/x',
        'This URL (http://files.example.zip/x) is blocked by threat protection (rule: blocked-tld: threatProtection.blockedTlds lists "zip").',
      ],
      [
        'http://localhost:1/secret',
        'This URL (http://localhost:1/secret) is blocked by threat protection (rule: blacklist: threatProtection.blacklist lists "localhost").',
      ],
    ]);
  });

  it('refuses a blacklisted start URL with 403 and fails a batch URL alone', async () => {
    const blocked = await h.api('/v2/crawl', {
      method: 'POST',
      json: { url: `${site.url}/`, scrapeOptions: { threatProtection: { mode: 'manual-only', blacklist: ['127.0.0.1'] } } },
    });
    expect(blocked.status).toBe(403);
    expect(await blocked.json()).toMatchObject({
      code: 'unsafe_domain_blocked',
      error: expect.stringMatching(/^This URL \(.*\) is blocked by threat protection \(rule: blacklist/),
    });

    const team = await h.newTeam({ credits: 100 });
    const hitsBefore = site.hits.get('/about') ?? 0;
    const batch = await h.api('/v2/batch/scrape', {
      method: 'POST',
      key: team.apiKey,
      json: { urls: [`${site.url}/`, 'http://localhost:1/secret'], maxAge: 0, threatProtection: { mode: 'manual-only', blacklist: ['*host'] } },
    });
    const { id } = await batch.json();
    const done = await waitFor(
      'the batch',
      async () => {
        const body = await (await h.api(`/v2/batch/scrape/${id}`, { key: team.apiKey })).json();
        return body.status === 'completed' ? body : undefined;
      },
      120_000,
    );
    expect(done.data.map((d: { metadata: { sourceURL: string } }) => d.metadata.sourceURL)).toEqual([`${site.url}/`]);
    const errors = await (await h.api(`/v2/batch/scrape/${id}/errors`, { key: team.apiKey })).json();
    expect(errors.errors).toEqual([
      expect.objectContaining({
        url: 'http://localhost:1/secret',
        error: expect.stringContaining('rule: blacklist: threatProtection.blacklist lists "*host"'),
      }),
    ]);
    expect(site.hits.get('/about') ?? 0).toBe(hitsBefore);
  });

  it('without a scanner: failurePolicy closed (the default) is a 403 saying so, open lets the page through with a warning', async () => {
    for (const mode of ['normal', 'zscaler']) {
      const closed = await h.api('/v2/scrape', { method: 'POST', json: { url: `${site.url}/about`, threatProtection: { mode } } });
      expect(closed.status).toBe(403);
      expect((await closed.json()).error).toMatch(
        /rule: provider-failure: threatProtection\.mode "\w+" scans with .*, which this service does not have, and failurePolicy "closed"/,
      );
      const open = await h.api('/v2/scrape', {
        method: 'POST',
        json: { url: `${site.url}/about`, maxAge: 0, threatProtection: { mode, failurePolicy: 'open', riskScoreThreshold: 50 } },
      });
      const body = await open.json();
      expect(open.status, JSON.stringify(body)).toBe(200);
      expect(body.data.warning).toMatch(/^threatProtection: mode "\w+" scans with .*; failurePolicy "open" let the page through without a scan/);
    }
    const whitelisted = await h.api('/v2/scrape', {
      method: 'POST',
      json: { url: `${site.url}/about`, maxAge: 0, threatProtection: { mode: 'normal', whitelist: ['127.0.0.1'] } },
    });
    expect(whitelisted.status).toBe(200);
  });
});

describe('auditMetadata', () => {
  it('is in the activity listing, from the top level or from scrapeOptions', async () => {
    const team = await h.newTeam({ credits: 100 });
    const scrape = await h.api('/v2/scrape', { method: 'POST', key: team.apiKey, json: { url: `${site.url}/about`, auditMetadata: { username: 'ada@corp' } } });
    expect(scrape.status).toBe(200);
    const crawl = await h.api('/v2/crawl', {
      method: 'POST',
      key: team.apiKey,
      json: { url: `${site.url}/about`, limit: 1, scrapeOptions: { auditMetadata: { username: 'grace' } } },
    });
    await waitForCrawl(h, (await crawl.json()).id, 120_000, team.apiKey);
    const listing = await (await h.api('/v2/team/activity', { key: team.apiKey })).json();
    expect(listing.data.map((r: { endpoint: string; audit_metadata: unknown }) => [r.endpoint, r.audit_metadata])).toEqual([
      ['crawl', { username: 'grace' }],
      ['scrape', { username: 'ada@corp' }],
    ]);
  });
});

describe('the JS SDK', () => {
  it('sends redactPII, threatProtection and auditMetadata and reads the answers', async () => {
    const team = await h.newTeam({ credits: 100 });
    const app = new Firecrawl({ apiKey: team.apiKey, apiUrl: h.baseUrl });
    const doc = await app.scrape(`${site.url}/`, {
      formats: ['markdown'],
      maxAge: 0,
      redactPII: { mode: 'accurate', entities: ['EMAIL', 'PHONE', 'PERSON'], replaceStyle: 'tag' },
      threatProtection: { mode: 'normal', failurePolicy: 'open' },
      auditMetadata: { username: 'js-sdk' },
    });
    expect(doc.markdown).toContain('<PERSON> lives in Springfield. Mail [<EMAIL>](mailto:<EMAIL>) or call <PHONE>.');
    expect(doc.warning).toMatch(/^threatProtection: mode "normal"/);
    await expect(app.scrape(`${site.url}/`, { threatProtection: { mode: 'manual-only', blacklist: ['127.0.0.1'] } })).rejects.toThrow(
      /blocked by threat protection/,
    );
    const job = await app.crawl(`${site.url}/`, { limit: 2, scrapeOptions: { maxAge: 0, redactPII: true }, pollInterval: 1 });
    expect(job.status).toBe('completed');
    expect(job.data.length).toBe(2);
    expectNoPii(job.data, 'the SDK crawl');
    const listing = await (await h.api('/v2/team/activity?endpoint=scrape', { key: team.apiKey })).json();
    expect(listing.data.at(-1).audit_metadata).toEqual({ username: 'js-sdk' });
  });
});

describe('the Python SDK', () => {
  it('sends them in ScrapeOptions and as scrape arguments, and parses the answers (test/sdk/python_redact_threat.py)', async () => {
    const team = await h.newTeam({ credits: 100 });
    const out = await runPythonSdk('test/sdk/python_redact_threat.py', { API_URL: h.baseUrl, API_KEY: team.apiKey, SITE_URL: site.url });
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    const result = JSON.parse(out.stdout);
    expect(result.status).toBe('completed');
    expect(result.urls).toEqual([`${site.url}/`, `${site.url}/about`]);
    expectNoPii(result.markdown, 'the SDK crawl');
    expect(result.markdown.join('\n')).toContain('Founded by ************ in ***********.');
    expect(result.errors.map(([url]: [string]) => url)).toEqual(['http://files.example.zip/x', 'http://localhost:1/secret']);
    expect(result.blocked).toMatch(/blocked by threat protection \(rule: provider-failure/);
    expect(result.open_warning).toMatch(/^threatProtection: mode "zscaler"/);
    expect(result.open_markdown).toContain('Founded by Rick Deckard');
    const listing = await (await h.api('/v2/team/activity', { key: team.apiKey })).json();
    const users = listing.data.map((r: { audit_metadata: { username: string } | null }) => r.audit_metadata?.username ?? null);
    expect(users).toContain('py-sdk');
    expect(users).toContain('py-scrape');
  });
});

describe('the contract', () => {
  it('answers match the OpenAPI document', async () => {
    expect(await contractProblems(h.baseUrl, recorded)).toEqual([]);
  });
});
