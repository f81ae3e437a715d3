// POST /v2/parse: uploads of every supported type turned into documents, the
// limits (413, 415, a zip bomb), unreadable files (422), bad options (400), model
// formats through the fake model, credits and tokens on the ledger, zero data
// retention, the team's concurrency slot (held, waited for, given back), and two
// teams parsing at once beside a running crawl.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from '../support/fake-llm.ts';
import { page, startFixtureSite, treeSite, type FixtureSite } from '../support/fixture-site.ts';
import { contractProblems, type RecordedResponse } from '../support/openapi-responses.ts';
import { startHarness, waitFor, waitForCrawl, type Harness } from '../support/harness.ts';
import { docxFile, zipFile } from '../support/zip-file.ts';
import { releaseTeamSlot, tryTeamSlot } from '../../src/platform/teams/team-slots.ts';

const MAX_FILE_BYTES = 256 * 1024;
const MAX_UNPACKED_BYTES = 512 * 1024;
const REPORT_PDF = readFileSync('test/fixtures/pdf/report.pdf');

let h: Harness;
let llm: FakeLlm;
let site: FixtureSite;
const recorded: RecordedResponse[] = [];

interface Upload {
  name: string;
  type?: string;
  bytes: Buffer | string;
}

function form(files: Upload[], options?: unknown): FormData {
  const body = new FormData();
  if (options !== undefined) body.append('options', typeof options === 'string' ? options : JSON.stringify(options));
  for (const f of files)
    body.append('file', new Blob([typeof f.bytes === 'string' ? f.bytes : new Uint8Array(f.bytes)], f.type ? { type: f.type } : {}), f.name);
  return body;
}

async function post(body: FormData | string, key?: string, headers?: Record<string, string>) {
  const res = await h.api('/v2/parse', { method: 'POST', body, key, headers });
  return { status: res.status, body: await res.json() };
}

async function parse(file: Upload, options?: unknown, key?: string) {
  return post(form([file], options), key);
}

/** A parse that must succeed: its document. */
async function parsed(file: Upload, options?: unknown, key?: string) {
  const res = await parse(file, options, key);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

/** The error envelope, with its code. */
function expectError(body: unknown, code: string) {
  expect(body).toMatchObject({ success: false, code, error: expect.any(String) });
}

async function ledger(teamId: string) {
  return h.db.usageEntry.findMany({ where: { teamId }, select: { endpoint: true, credits: true, tokens: true, itemKey: true } });
}

async function heldSlots(teamId: string) {
  return h.db.teamSlot.count({ where: { teamId, holder: { not: null } } });
}

const HTML = page(
  'Quarterly page',
  `<nav><a href="/menu">Menu</a></nav>
   <main><h1>Results</h1><p>Revenue grew. <a href="https://example.com/more">More</a> <a href="/relative">Relative</a></p>
   <img src="https://example.com/chart.png" alt="chart"><img src="data:image/png;base64,iVBORw0KGgo=" alt="inline">
   <p class="legal">Legal text.</p></main>`,
  '<meta name="description" content="The quarter in numbers">',
);

beforeAll(async () => {
  llm = await startFakeLlm();
  h = await startHarness({
    llm: { baseUrl: llm.url, model: 'fake-big', smallModel: 'fake-small', timeoutMs: 3000 },
    parse: { maxFileBytes: MAX_FILE_BYTES, maxUnpackedBytes: MAX_UNPACKED_BYTES },
    recordResponses: recorded,
  });
  await h.startWorker();
  site = await startFixtureSite(treeSite(12), { delayMs: (path) => (path === '/' ? 0 : 150) });
});

afterAll(async () => {
  await site?.close();
  await h?.stop();
  await llm?.close();
});

describe('each supported type', () => {
  it('HTML: the scrape path (main content, tags, links, images, metadata), one credit on the ledger under parse', async () => {
    const team = await h.newTeam();
    const doc = await parsed(
      { name: 'quarter.html', type: 'text/html', bytes: HTML },
      { formats: ['markdown', 'html', 'rawHtml', 'links', 'images'], excludeTags: ['.legal'] },
      team.apiKey,
    );
    expect(doc.markdown).toContain('# Results');
    expect(doc.markdown).toContain('Revenue grew.');
    expect(doc.markdown).not.toContain('Menu');
    expect(doc.markdown).not.toContain('Legal text.');
    expect(doc.html).not.toContain('data:image/png');
    expect(doc.rawHtml).toBe(HTML);
    // Only absolute web links: an upload has no address relative links could resolve against.
    expect(doc.links).toEqual(['https://example.com/more']);
    expect(doc.images).toContain('https://example.com/chart.png');
    expect(doc.metadata).toMatchObject({
      title: 'Quarterly page',
      description: 'The quarter in numbers',
      statusCode: 200,
      contentType: 'text/html',
      sourceURL: 'file:///quarter.html',
      url: 'file:///quarter.html',
    });
    expect(await ledger(team.teamId)).toEqual([{ endpoint: 'parse', credits: 1, tokens: 15, itemKey: 'file' }]);
    expect(await heldSlots(team.teamId)).toBe(0);
  });

  it('HTML is recognised by its content when the type and name say nothing; onlyMainContent: false keeps the navigation', async () => {
    const doc = await parsed({ name: 'upload', bytes: HTML }, { onlyMainContent: false });
    expect(doc.markdown).toContain('Menu');
    expect(doc.metadata.contentType).toBe('text/html');
  });

  it('PDF: its text, title and page count; charged per page as a scrape of it is', async () => {
    const team = await h.newTeam();
    const doc = await parsed({ name: 'report.pdf', type: 'application/pdf', bytes: REPORT_PDF }, { formats: ['markdown', 'html'] }, team.apiKey);
    expect(doc.markdown).toContain('# Quarterly Report');
    expect(doc.markdown).toContain('- New customers in three markets');
    expect(doc.html).toContain('<h1>Quarterly Report</h1>');
    expect(doc.metadata).toMatchObject({
      title: 'Quarterly Report',
      numPages: 2,
      contentType: 'application/pdf',
      statusCode: 200,
      sourceURL: 'file:///report.pdf',
    });
    expect(await ledger(team.teamId)).toEqual([{ endpoint: 'parse', credits: 2, tokens: 30, itemKey: 'file' }]);
  });

  it('PDF: recognised by its bytes whatever it is called; parsers maxPages stops early and charges the pages read', async () => {
    const team = await h.newTeam();
    const doc = await parsed(
      { name: 'scan.bin', type: 'application/octet-stream', bytes: REPORT_PDF },
      { parsers: [{ type: 'pdf', maxPages: 1 }] },
      team.apiKey,
    );
    expect(doc.markdown).toContain('Quarterly Report');
    expect(doc.markdown).toContain('Highlights');
    expect(doc.markdown).not.toContain('Outlook');
    expect(doc.metadata.numPages).toBe(2);
    expect((await ledger(team.teamId))[0].credits).toBe(1);
  });

  it('DOCX: through its HTML (headings, escaped text)', async () => {
    const doc = await parsed(
      { name: 'notes.docx', bytes: docxFile(['Board notes', 'Revenue grew &lt;fast&gt;.', 'Second paragraph.'], { deflate: true }) },
      { formats: ['markdown', 'html'] },
    );
    expect(doc.markdown).toContain('# Board notes');
    expect(doc.markdown).toContain('Revenue grew <fast>.');
    expect(doc.html).toContain('<p>Second paragraph.</p>');
    expect(doc.metadata.contentType).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
  });

  it('markdown and plain text: the markdown as sent, the html a <pre> of it', async () => {
    const md = '# Title\n\n- one\n- two <b>\n';
    const doc = await parsed({ name: 'readme.md', bytes: md }, { formats: ['markdown', 'html', 'links'] });
    expect(doc.markdown).toBe(md);
    expect(doc.html).toBe('<pre># Title\n\n- one\n- two &lt;b&gt;\n</pre>');
    expect(doc.links).toEqual([]);
    expect(doc.metadata.contentType).toBe('text/markdown');
    const text = await parsed({ name: 'notes', type: 'text/plain; charset=utf-8', bytes: '\uFEFFplain words' });
    expect(text.markdown).toBe('plain words');
    expect(text.metadata.contentType).toBe('text/plain');
  });
});

describe('limits and unreadable files', () => {
  it('a file past PARSE_MAX_FILE_BYTES is a 413 FILE_TOO_LARGE, however it is called', async () => {
    const res = await parse({ name: 'big.txt', type: 'text/plain', bytes: Buffer.alloc(MAX_FILE_BYTES + 1, 'a') });
    expect(res.status).toBe(413);
    expectError(res.body, 'FILE_TOO_LARGE');
    expect(res.body.error).toContain('PARSE_MAX_FILE_BYTES');
    // Exactly the cap is accepted.
    expect((await parse({ name: 'big.txt', type: 'text/plain', bytes: Buffer.alloc(MAX_FILE_BYTES, 'a') })).status).toBe(200);
  });

  it('other types are a 415 UNSUPPORTED_MEDIA_TYPE naming the supported ones; so is a body that is not multipart', async () => {
    for (const file of [
      { name: 'chart.svg', type: 'image/svg+xml', bytes: '<svg xmlns="http://www.w3.org/2000/svg"/>' },
      { name: 'data.xlsx', bytes: zipFile([{ name: 'xl/workbook.xml', data: '<workbook/>' }]) },
      { name: 'blob', bytes: Buffer.from([0, 1, 2, 3]) },
    ]) {
      const res = await parse(file);
      expect(res.status, file.name).toBe(415);
      expectError(res.body, 'UNSUPPORTED_MEDIA_TYPE');
      expect(res.body.error).toContain('PDF (.pdf), HTML');
    }
    const json = await h.api('/v2/parse', { method: 'POST', json: { file: 'x' } });
    expect(json.status).toBe(415);
    expectError(await json.json(), 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('a corrupt PDF, DOCX and PNG are a 422 UNREADABLE_FILE saying what is wrong; the team is not charged and holds no slot', async () => {
    const team = await h.newTeam();
    const pdf = await parse({ name: 'broken.pdf', type: 'application/pdf', bytes: '%PDF-1.7\nnot really a pdf' }, undefined, team.apiKey);
    expect(pdf.status).toBe(422);
    expectError(pdf.body, 'UNREADABLE_FILE');
    expect(pdf.body.error).toMatch(/^The PDF could not be read/);
    const docx = await parse({ name: 'broken.docx', bytes: 'PK\u0003\u0004 truncated' }, undefined, team.apiKey);
    expect(docx.status).toBe(422);
    expectError(docx.body, 'UNREADABLE_FILE');
    expect(docx.body.error).toMatch(/^The DOCX could not be read/);
    // A PNG cut after its signature: refused from its header, before OCR.
    const png = await parse({ name: 'chart.png', type: 'image/png', bytes: Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex') }, undefined, team.apiKey);
    expect(png.status).toBe(422);
    expect(png.body).toMatchObject({ code: 'UNREADABLE_FILE', error: 'The image could not be read: its PNG header gives no size' });
    expect(await ledger(team.teamId)).toEqual([]);
    expect(await heldSlots(team.teamId)).toBe(0);
  });

  it('a DOCX that inflates past PARSE_MAX_UNPACKED_BYTES (a zip bomb) is refused before it is unpacked', async () => {
    const bomb = docxFile(['x'], { deflate: true, padding: MAX_UNPACKED_BYTES * 2 });
    expect(bomb.length).toBeLessThan(MAX_FILE_BYTES);
    const res = await parse({ name: 'bomb.docx', bytes: bomb });
    expect(res.status).toBe(422);
    expect(res.body.error).toContain('PARSE_MAX_UNPACKED_BYTES');
  });
});

describe('the multipart body and the options part', () => {
  const note = { name: 'a.txt', type: 'text/plain', bytes: 'hello' };

  it('options that are not JSON, unknown keys, page-only formats and bad values are 400s naming the field', async () => {
    const notJson = await parse(note, '{formats:');
    expect(notJson.status).toBe(400);
    expectError(notJson.body, 'BAD_REQUEST_INVALID_JSON');
    const pageOption = await parse(note, { waitFor: 1000 });
    expect(pageOption.status).toBe(400);
    expect(pageOption.body.error).toBe('waitFor: waitFor does not apply to an uploaded file: leave it out (or 0)');
    const unknown = await parse(note, { maxDepth: 2 });
    expect(unknown.body.error).toMatch(/Unrecognized key/);
    for (const format of ['screenshot', 'changeTracking', 'branding']) {
      const res = await parse(note, { formats: ['markdown', format] });
      expect(res.status, format).toBe(400);
      expect(res.body.error).toBe(
        `formats.1: The ${format} format is not available for uploads: it needs a web page rendered in a browser (screenshot, changeTracking, branding are not available for POST /v2/parse).`,
      );
    }
    const timeout = await parse(note, { timeout: 'soon' });
    expect(timeout.status).toBe(400);
    expect(timeout.body.error).toMatch(/^timeout: /);
    const tags = await parse(note, { includeTags: ['p:::bad('] });
    expect(tags.status).toBe(400);
  });

  it('a second file, a missing file, an empty file and an unknown part are 400s', async () => {
    const two = await post(form([note, note]));
    expect(two.status).toBe(400);
    expectError(two.body, 'TOO_MANY_FILES');
    const none = new FormData();
    none.append('options', '{}');
    const missing = await post(none);
    expect(missing.status).toBe(400);
    expectError(missing.body, 'MISSING_FILE');
    const empty = await parse({ name: 'empty.txt', type: 'text/plain', bytes: '' });
    expect(empty.status).toBe(400);
    expectError(empty.body, 'EMPTY_FILE');
    const other = new FormData();
    other.append('upload', new Blob(['x']), 'x.txt');
    const unknown = await post(other);
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toContain('"upload"');
  });

  it('a request without a key gets its 401 before the upload is read', async () => {
    const res = await h.api('/v2/parse', { method: 'POST', body: form([note]), key: null });
    expect(res.status).toBe(401);
  });
});

describe('model formats, credits and zero data retention', () => {
  it('json, question and summary through the model: fields filled, credits as a scrape (1 + 4 per model format), tokens on the ledger', async () => {
    const team = await h.newTeam();
    const before = llm.answered;
    const doc = await parsed(
      { name: 'quarter.html', bytes: HTML },
      { formats: ['markdown', 'summary', { type: 'json', prompt: 'the title' }, { type: 'question', question: 'What grew?' }] },
      team.apiKey,
    );
    expect(doc.json).toBeTypeOf('object');
    expect(typeof doc.answer).toBe('string');
    expect(typeof doc.summary).toBe('string');
    const calls = llm.answered - before;
    expect(calls).toBe(3);
    const [entry] = await ledger(team.teamId);
    expect(entry.credits).toBe(1 + 2 * 4);
    expect(entry.tokens).toBe(entry.credits * 15 + calls * (llm.usage.prompt_tokens + llm.usage.completion_tokens));
  });

  it('zero data retention: refused without the team flag; with it, one more credit, nothing stored, a model format refused unless the model is local', async () => {
    const plain = await h.newTeam();
    const refused = await parse({ name: 'a.txt', bytes: 'secret' }, { zeroDataRetention: true }, plain.apiKey);
    expect(refused.status).toBe(403);
    const team = await h.newTeam({ flags: { zeroDataRetention: true } });
    const doc = await parsed({ name: 'a.txt', bytes: 'secret words' }, { zeroDataRetention: true }, team.apiKey);
    expect(doc.markdown).toBe('secret words');
    expect(await ledger(team.teamId)).toEqual([{ endpoint: 'parse', credits: 2, tokens: 30, itemKey: 'file' }]);
    // No job, page or activity row holds anything of it.
    expect(await h.db.job.count({ where: { teamId: team.teamId } })).toBe(0);
    expect(await h.db.activityLog.count({ where: { teamId: team.teamId } })).toBe(0);
    const model = await parse({ name: 'a.txt', bytes: 'secret' }, { zeroDataRetention: true, formats: [{ type: 'question', question: 'why?' }] }, team.apiKey);
    expect(model.status).toBe(400);
    expectError(model.body, 'MODEL_NOT_LOCAL');
  });

  it('a team without credits gets a 402', async () => {
    const team = await h.newTeam({ credits: 0 });
    const res = await parse({ name: 'a.txt', bytes: 'x' }, undefined, team.apiKey);
    expect(res.status).toBe(402);
  });
});

describe('the team concurrency slot', () => {
  it('a parse waits for a slot of its team: it runs once one is free (concurrencyLimited), or answers 408 when its timeout passes first', async () => {
    const team = await h.newTeam({ concurrencyLimit: 1 });
    const holder = { teamId: team.teamId, limit: 1, holder: 'test-holder', group: 'test-holder', leaseMs: 60_000 };
    expect(await tryTeamSlot(h.db, holder)).toBe(0);
    let settled = false;
    const waiting = parse({ name: 'a.txt', bytes: 'waited' }, undefined, team.apiKey).finally(() => (settled = true));
    // Sent after the one above, this waits its whole second: by then the first is waiting too.
    const late = await parse({ name: 'a.txt', bytes: 'x' }, { timeout: 1000 }, team.apiKey);
    expect(late.status).toBe(408);
    expectError(late.body, 'CONCURRENCY_TIMEOUT');
    expect(settled).toBe(false);
    await releaseTeamSlot(h.db, team.teamId, 'test-holder');
    const res = await waiting;
    expect(res.status).toBe(200);
    expect(res.body.data.markdown).toBe('waited');
    expect(res.body.data.metadata.concurrencyLimited).toBe(true);
    expect(await heldSlots(team.teamId)).toBe(0);
  });

  it('two teams parse at once beside a running crawl of one of them; every parse succeeds and no slot or browser lease is left', async () => {
    const a = await h.newTeam({ concurrencyLimit: 2 });
    const b = await h.newTeam({ concurrencyLimit: 1 });
    const start = await h.api('/v2/crawl', { method: 'POST', json: { url: site.url, limit: 12 }, key: a.apiKey });
    expect(start.status).toBe(200);
    const crawlId = (await start.json()).id as string;
    const files: Upload[] = [
      { name: 'report.pdf', bytes: REPORT_PDF },
      { name: 'page.html', bytes: HTML },
      { name: 'notes.docx', bytes: docxFile(['Notes', 'Body text.']) },
      { name: 'readme.md', bytes: '# Readme' },
    ];
    const runs = [a, b].flatMap((team) => files.map((file) => parse(file, { formats: ['markdown'] }, team.apiKey)));
    const answers = await Promise.all(runs);
    for (const res of answers) expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(answers.map((r) => r.body.data.markdown.split('\n')[0])).toEqual([
      '# Quarterly Report',
      '# Results',
      '# Notes',
      '# Readme',
      '# Quarterly Report',
      '# Results',
      '# Notes',
      '# Readme',
    ]);
    const crawl = await waitForCrawl(h, crawlId, 120_000, a.apiKey);
    expect(crawl.status).toBe('completed');
    expect(crawl.data).toHaveLength(12);
    for (const team of [a, b]) {
      const parses = (await ledger(team.teamId)).filter((e) => e.endpoint === 'parse');
      expect(parses.map((e) => e.credits).sort()).toEqual([1, 1, 1, 2]);
    }
    await waitFor('both teams to hold no slot and no browser lease', async () => {
      const slots = await h.db.teamSlot.count({ where: { teamId: { in: [a.teamId, b.teamId] }, holder: { not: null } } });
      const leases = await h.db.browserLease.count({ where: { teamId: { in: [a.teamId, b.teamId] } } });
      return slots === 0 && leases === 0;
    });
  });
});

it('every JSON answer is as the OpenAPI document (/v2/openapi.json) says', async () => {
  expect(recorded.length).toBeGreaterThan(0);
  expect(await contractProblems(h.baseUrl, recorded)).toEqual([]);
});
