// The extract body's own rules (wildcards, prompt or schema) and how its pages
// are packed into model chunks.
import { describe, expect, it } from 'vitest';
import { extractRequestSchema, EXTRACT_NEEDS_MESSAGE } from '../../../src/features/extract/extract-request.ts';
import { plannedJobs } from '../../../src/features/extract/extract-jobs.ts';
import { chunkPages } from '../../../src/features/extract/extract-with-model.ts';

const ID = '0193a2b4-0000-7000-8000-000000000001';

describe('extract request', () => {
  it('keeps a /* URL as a wildcard and needs a prompt or a schema', () => {
    const req = extractRequestSchema.parse({ urls: ['https://a.example/docs/*', 'https://a.example/x'], prompt: 'p' });
    expect(req.urls).toEqual(['https://a.example/docs/*', 'https://a.example/x']);
    const bare = extractRequestSchema.safeParse({ urls: ['https://a.example/x'] });
    expect(bare.success).toBe(false);
    expect(bare.error?.issues.map((i) => i.message)).toEqual([EXTRACT_NEEDS_MESSAGE]);
    expect(extractRequestSchema.safeParse({ urls: ['notaurl/*'], prompt: 'p' }).success).toBe(false);
  });

  it('plans one batch scrape for the plain URLs and a crawl per wildcard, with ids derived from the extract', () => {
    const req = extractRequestSchema.parse({ urls: ['https://a.example/x', 'https://a.example/x', 'https://b.example/*'], prompt: 'p' });
    const jobs = plannedJobs(ID, req, 7);
    expect(jobs.map((j) => [j.kind, j.url, j.urls])).toEqual([
      ['batch_scrape', 'https://a.example/x', ['https://a.example/x']],
      ['crawl', 'https://b.example', undefined],
    ]);
    expect(jobs[1]!.options.limit).toBe(7);
    expect(jobs.every((j) => j.options.scrapeOptions.formats.map((f) => f.type).join() === 'markdown')).toBe(true);
    expect(plannedJobs(ID, req, 7).map((j) => j.id)).toEqual(jobs.map((j) => j.id));
  });
});

describe('chunkPages', () => {
  it('packs whole pages in order up to the budget and clips a page longer than it', () => {
    const pages = [
      { url: 'a', markdown: 'x'.repeat(40) },
      { url: 'b', markdown: 'y'.repeat(50) },
      { url: 'c', markdown: 'z'.repeat(30) },
      { url: 'd', markdown: 'w'.repeat(500) },
    ];
    const chunks = chunkPages(pages, 100);
    expect(chunks.map((c) => c.map((p) => p.url))).toEqual([['a', 'b'], ['c'], ['d']]);
    expect(chunks[2]![0]!.markdown.startsWith('w'.repeat(100))).toBe(true);
    expect(chunks[2]![0]!.markdown).toContain('[The page continues; the rest was not included.]');
  });
});
