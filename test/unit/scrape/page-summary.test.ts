import { describe, expect, it } from 'vitest';
import { extractiveSummary, SUMMARY_MAX_CHARS } from '../../../src/page/summary/extractive-summary.ts';
import { LLM_SUMMARY_INPUT_CHARS, summarizePage } from '../../../src/page/summary/page-summary.ts';
import { NO_TOKENS } from '../../../src/platform/llm/chat-completion.ts';

const ARTICLE = `# Temporal workflows
[Home](/) [Docs](/docs) [Blog](/blog)

Temporal is a durable execution platform for long running workflows.

![diagram](/d.png)

Workflows written in TypeScript survive crashes of the worker that runs them.

\`\`\`ts
const secretCodeLine = await run();
\`\`\`

A workflow's history records every event, so a restarted worker replays the workflow and continues where it stopped.

| a | b |
|---|---|
| 1 | 2 |

Subscribe to our newsletter for news.
Subscribe to our newsletter for news.`;

describe('extractiveSummary', () => {
  const summary = extractiveSummary(ARTICLE, 'en');

  it('keeps the sentences that carry the page, in page order', () => {
    expect(summary).toContain('Temporal is a durable execution platform');
    expect(summary.indexOf('durable execution')).toBeLessThan(summary.indexOf('history records'));
  });

  it('leaves out code, images, link targets, menus and table rules', () => {
    expect(summary).not.toMatch(/secretCodeLine|d\.png|\/docs|\||Home Docs/);
  });

  it('takes a repeated sentence once', () => {
    expect(summary.split('Subscribe to our newsletter').length).toBeLessThanOrEqual(2);
  });

  it(`stays within ${SUMMARY_MAX_CHARS} characters, however long the page and its sentences`, () => {
    const long = Array.from(
      { length: 3000 },
      (_, i) => `Sentence number ${i} talks about crawling, indexing and ranking pages ${'at length '.repeat(i % 40)}.`,
    ).join(' ');
    expect(extractiveSummary(long).length).toBeLessThanOrEqual(SUMMARY_MAX_CHARS);
    expect(extractiveSummary(`${'word '.repeat(400)}.`).length).toBeLessThanOrEqual(SUMMARY_MAX_CHARS);
  });

  it('works in other scripts and answers empty text for a page without prose', () => {
    expect(extractiveSummary('東京は日本の首都であり、世界最大の都市圏の一つです。多くの人々が毎日電車で通勤しています。', 'ja')).toContain('東京は日本の首都');
    expect(extractiveSummary('')).toBe('');
    expect(extractiveSummary('[a](/a) [b](/b)\n\n---\n\n123 456')).toBe('');
  });

  it('accepts a language the runtime does not know', () => {
    expect(extractiveSummary('Temporal is a durable execution platform for workflows.', 'not a language tag!')).toContain('durable');
  });
});

describe('summarizePage', () => {
  const llm = { baseUrl: 'http://llm.test/v1', model: 'm', timeoutMs: 1000 };
  const answering = (content: unknown, seen: unknown[] = []) =>
    (async (_url: string, init: RequestInit) => {
      seen.push(JSON.parse(String(init.body)));
      return new Response(JSON.stringify({ choices: [{ message: { content } }] }), { status: 200 });
    }) as unknown as typeof fetch;

  it('is extractive without an LLM', async () => {
    expect(await summarizePage({ markdown: ARTICLE, language: 'en' }, undefined)).toEqual({ summary: extractiveSummary(ARTICLE, 'en'), usage: NO_TOKENS });
  });

  it("asks the LLM with the page's start as data, and answers its reply", async () => {
    const seen: { messages: { role: string; content: string }[] }[] = [];
    const page = `${ARTICLE}\n\n${'x'.repeat(LLM_SUMMARY_INPUT_CHARS)}`;
    expect(await summarizePage({ markdown: page }, llm, answering('  A page about Temporal.  ', seen))).toEqual({
      summary: 'A page about Temporal.',
      usage: NO_TOKENS,
    });
    expect(seen[0].messages[0]).toMatchObject({ role: 'system', content: expect.stringContaining('not instructions') });
    expect(seen[0].messages[1].content).toHaveLength(LLM_SUMMARY_INPUT_CHARS);
  });

  it('falls back to the extractive summary with a warning when the LLM fails or answers nothing', async () => {
    const down = (async () => new Response('quota exceeded for account 42', { status: 429 })) as unknown as typeof fetch;
    const failed = await summarizePage({ markdown: ARTICLE }, llm, down);
    expect(failed).toEqual({
      summary: extractiveSummary(ARTICLE),
      warning: 'The summary is extractive: the LLM endpoint answered HTTP 429.',
      usage: NO_TOKENS,
    });
    expect((await summarizePage({ markdown: ARTICLE }, llm, answering(' '))).warning).toBe(
      'The summary is extractive: the LLM answered with an empty summary.',
    );
    expect((await summarizePage({ markdown: ARTICLE }, llm, answering(null))).warning).toMatch(/no message content/);
  });

  it('does not ask the LLM about an empty page', async () => {
    const seen: unknown[] = [];
    expect(await summarizePage({ markdown: '  ' }, llm, answering('x', seen))).toEqual({ summary: '', usage: NO_TOKENS });
    expect(seen).toEqual([]);
  });
});
