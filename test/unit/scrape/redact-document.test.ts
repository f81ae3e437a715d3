// redactPII over a whole document: every page text (formats, model answers,
// metadata) rewritten, URLs and the service's own fields kept, the model's names
// found everywhere, and a model that is missing or fails failing the redaction.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LlmSettings } from '../../../src/platform/llm/chat-completion.ts';
import { chunkText, findNames } from '../../../src/page/redaction/pii-model.ts';
import {
  htmlText,
  redactDocument,
  redactionModelEntities,
  redactionPlan,
  RedactionError,
  skippedWarning,
} from '../../../src/page/redaction/redact-document.ts';
import { startFakeLlm, type FakeLlm } from '../../support/fake-llm.ts';

let fake: FakeLlm;
let llm: LlmSettings;

beforeAll(async () => {
  fake = await startFakeLlm();
  llm = { baseUrl: fake.url, model: 'fake', timeoutMs: 5_000, maxInputChars: 4_000 };
});

afterAll(async () => {
  await fake.close();
});

function page() {
  return {
    markdown: '# Team\n\nJane Doe lives in Springfield. Mail jane@example.com or call 555-123-4567.',
    html: '<p>Jane Doe lives in Springfield. <a href="mailto:jane@example.com">mail</a></p>',
    rawHtml: '<html><head><script>var k = "AKIAIOSFODNN7EXAMPLE";</script></head><body><footer>© Jane Doe</footer></body></html>',
    links: ['mailto:jane@example.com', 'https://example.com/team'],
    summary: 'Jane Doe can be reached at jane@example.com.',
    json: { contact: { name: 'Jane Doe', email: 'jane@example.com', phones: ['555-123-4567'] }, count: 3 },
    answer: 'Call 555-123-4567.',
    warning: 'keep: jane@example.com is the service’s own text',
    actions: { scrapes: [{ url: 'https://example.com/', html: '<b>jane@example.com</b>' }], javascriptReturns: [{ type: 'string', value: 'Jane Doe' }] },
    metadata: {
      title: 'Jane Doe – Team',
      description: 'Contact jane@example.com',
      ogLocaleAlternate: ['Jane Doe'],
      sourceURL: 'https://example.com/team?email=jane@example.com',
      url: 'https://example.com/team?email=jane@example.com',
      statusCode: 200,
    },
  };
}

describe('redactionPlan', () => {
  it('defaults to accurate, every entity, tag', () => {
    expect(redactionPlan(true)).toEqual({
      mode: 'accurate',
      patternEntities: new Set(['EMAIL', 'PHONE', 'FINANCIAL', 'SECRET']),
      modelEntities: ['PERSON', 'LOCATION'],
      replaceStyle: 'tag',
      skipped: [],
    });
    expect(redactionPlan(false)).toBeUndefined();
    expect(redactionPlan(undefined)).toBeUndefined();
  });

  it('needs the model only for PERSON and LOCATION outside mode fast, and says what fast left out', () => {
    expect(redactionModelEntities({ entities: ['EMAIL', 'SECRET'] })).toEqual([]);
    expect(redactionModelEntities({ entities: ['LOCATION'] })).toEqual(['LOCATION']);
    expect(redactionModelEntities({ mode: 'fast' })).toEqual([]);
    expect(skippedWarning(redactionPlan({ mode: 'fast' })!)).toMatch(
      /^redactPII: mode "fast" finds EMAIL, PHONE, FINANCIAL, SECRET by pattern only; PERSON and LOCATION need the model/,
    );
    expect(skippedWarning(redactionPlan({ mode: 'fast', entities: ['EMAIL'] })!)).toBeUndefined();
  });
});

describe('redactDocument', () => {
  it('rewrites every page text and keeps URLs, status and the service warning', async () => {
    const doc = page();
    const usage = await redactDocument(doc, redactionPlan(true)!, { llm, maxModelChunks: 8 });
    expect(usage.promptTokens).toBeGreaterThan(0);
    const { metadata, warning, ...texts } = doc;
    const everything = JSON.stringify({ ...texts, title: metadata.title, description: metadata.description, alt: metadata.ogLocaleAlternate });
    for (const pii of ['Jane', 'Doe', 'Springfield', 'jane@example.com', '555-123-4567', 'AKIAIOSFODNN7EXAMPLE']) expect(everything).not.toContain(pii);
    expect(doc.markdown).toBe('# Team\n\n<PERSON> lives in <LOCATION>. Mail <EMAIL> or call <PHONE>.');
    expect(doc.html).toBe('<p>&lt;PERSON&gt; lives in &lt;LOCATION&gt;. <a href="mailto:&lt;EMAIL&gt;">mail</a></p>');
    expect(doc.rawHtml).toContain('<footer>© &lt;PERSON&gt;</footer>');
    expect(doc.links).toEqual(['mailto:<EMAIL>', 'https://example.com/team']);
    expect(doc.json).toEqual({ contact: { name: '<PERSON>', email: '<EMAIL>', phones: ['<PHONE>'] }, count: 3 });
    expect(doc.actions.scrapes[0]!.html).toBe('<b>&lt;EMAIL&gt;</b>');
    expect(metadata.sourceURL).toBe('https://example.com/team?email=jane@example.com');
    expect(metadata.statusCode).toBe(200);
    expect(warning).toContain('jane@example.com');
  });

  it('masks and removes; fast runs no model', async () => {
    const requests = fake.requests.length;
    const masked = { markdown: 'Jane Doe: jane@example.com', metadata: { sourceURL: 'u', url: 'u', statusCode: 200 } };
    await redactDocument(masked, redactionPlan({ mode: 'fast', replaceStyle: 'mask' })!, { llm, maxModelChunks: 8 });
    expect(masked.markdown).toBe('Jane Doe: ****************');
    const removed = { markdown: 'Jane Doe: jane@example.com', metadata: { sourceURL: 'u', url: 'u', statusCode: 200 } };
    await redactDocument(removed, redactionPlan({ replaceStyle: 'remove' })!, { llm, maxModelChunks: 8 });
    expect(removed.markdown).toBe(': ');
    expect(fake.requests.length).toBe(requests + 1);
  });

  it('aggressive also takes the parts of names, in any case', async () => {
    const doc = { markdown: 'Jane Doe wrote this. Later DOE and Ms. Doe replied.', metadata: { sourceURL: 'u', url: 'u', statusCode: 200 } };
    await redactDocument(doc, redactionPlan({ mode: 'aggressive', entities: ['PERSON'] })!, { llm, maxModelChunks: 8 });
    expect(doc.markdown).toBe('<PERSON> wrote this. Later <PERSON> and Ms. <PERSON> replied.');
  });

  it('fails, never half redacts, without a model, when the model fails, or past the chunks it may read', async () => {
    const doc = () => ({ markdown: 'Jane Doe, jane@example.com', metadata: { sourceURL: 'u', url: 'u', statusCode: 200 } });
    await expect(redactDocument(doc(), redactionPlan(true)!, { maxModelChunks: 8 })).rejects.toThrow(
      /PERSON and LOCATION need a model and none may read this page/,
    );
    fake.script = () => 'not json at all';
    try {
      await expect(redactDocument(doc(), redactionPlan(true)!, { llm, maxModelChunks: 8 })).rejects.toThrow(
        /^the model that finds PERSON and LOCATION failed: the answer is not valid JSON \(after one retry\)$/,
      );
    } finally {
      fake.script = undefined;
    }
    const long = { markdown: 'x '.repeat(5_000), metadata: { sourceURL: 'u', url: 'u', statusCode: 200 } };
    const failure = await redactDocument(long, redactionPlan(true)!, { llm, maxModelChunks: 2 }).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(RedactionError);
    expect((failure as Error).message).toMatch(
      /more than the model reads for redaction \(2 chunks of 4000: REDACT_PII_MAX_MODEL_CHUNKS, LLM_MAX_INPUT_CHARS\)/,
    );
  });
});

describe('helpers', () => {
  it('chunks with an overlap, so a name cut at one end is whole in the next chunk', () => {
    const chunks = chunkText('a'.repeat(1000), 400);
    expect(chunks.map((c) => c.length)).toEqual([400, 400, 400, 400]);
    expect(chunkText('', 400)).toEqual([]);
  });

  it('finds whole words only, and HTML-escaped forms inside HTML', () => {
    const names = new Map([
      ['Ann', 'PERSON' as const],
      ["O'Brien", 'PERSON' as const],
    ]);
    expect(findNames('Ann and Annual', names, false, false)).toEqual([{ start: 0, end: 3, entity: 'PERSON' }]);
    expect(findNames('<b>O&#39;Brien</b>', names, false, true)).toEqual([{ start: 3, end: 14, entity: 'PERSON' }]);
  });

  it('reads the text of HTML without scripts, styles or tags', () => {
    expect(htmlText('<p>Hi <b>Jane</b>&amp;co</p><script>var x="<p>no</p>"</script><style>p{}</style>end')).toBe(' Hi Jane &co end');
  });
});
