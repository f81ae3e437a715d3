import { ZodError } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/platform/domain-error.ts';
import { previewCrawlParams } from '../../../src/features/crawl/params-preview.ts';
import { NO_LLM_MESSAGE } from '../../../src/features/crawl/prompt-options.ts';
import { startFakeLlm, type FakeLlm } from '../../support/fake-llm.ts';

let llm: FakeLlm;

beforeAll(async () => {
  llm = await startFakeLlm();
});

afterAll(async () => {
  await llm.close();
});

const settings = () => ({ baseUrl: llm.url, model: 'fake-model', timeoutMs: 5000 });

describe('previewCrawlParams', () => {
  it('answers the URL and the options the model produced, dropping keys it does not know', async () => {
    llm.script = () => '{"excludePaths":["^/tag/"],"crawlEntireDomain":true,"maxDepth":2}';
    await expect(previewCrawlParams({ url: 'https://example.com/docs', prompt: 'the docs, no tag pages', extra: 1 }, settings())).resolves.toEqual({
      success: true,
      data: { url: 'https://example.com/docs', excludePaths: ['^/tag/'], crawlEntireDomain: true },
    });
  });

  it('is a 400 naming LLM_BASE_URL when no LLM is configured, before any request', async () => {
    const sent = llm.requests.length;
    const err = await previewCrawlParams({ url: 'https://example.com/', prompt: 'anything' }, undefined).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).kind).toBe('invalid');
    expect((err as DomainError).message).toBe(NO_LLM_MESSAGE);
    expect(NO_LLM_MESSAGE).toContain('LLM_BASE_URL');
    expect(llm.requests).toHaveLength(sent);
  });

  it.each([
    [{ prompt: 'x' }, 'url'],
    [{ url: 'ftp://example.com/', prompt: 'x' }, 'url'],
    [{ url: 'https://example.com/' }, 'prompt'],
    [{ url: 'https://example.com/', prompt: '   ' }, 'prompt'],
    [{ url: 'https://example.com/', prompt: 'x'.repeat(10_001) }, 'prompt'],
  ])('rejects %j at %s', async (body, field) => {
    const err = await previewCrawlParams(body, settings()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ZodError);
    expect((err as ZodError).issues[0].path).toEqual([field]);
  });
});
