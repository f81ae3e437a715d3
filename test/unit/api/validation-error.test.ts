import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { crawlRequestSchema } from '../../../src/jobs/crawl-request.ts';
import { formatZodError, UNRECOGNIZED_KEY_MESSAGE } from '../../../src/platform/http/validation-error.ts';

function errorOf(schema: z.ZodType, input: unknown): z.ZodError {
  const result = schema.safeParse(input);
  if (result.success) throw new Error('expected failure');
  return result.error;
}

describe('formatZodError', () => {
  it('uses "<path>: <message>" of the first issue', () => {
    const out = formatZodError(errorOf(crawlRequestSchema, { url: 'https://example.com', limit: 0, delay: 99 }));
    expect(out.error).toBe('limit: limit must be a positive integer');
    expect(out.details).toHaveLength(2);
    expect(out.details[0]).toStrictEqual({
      origin: 'number',
      code: 'too_small',
      minimum: 1,
      inclusive: true,
      path: ['limit'],
      message: 'limit must be a positive integer',
    });
  });

  it('uses the nested path for scrapeOptions issues', () => {
    const out = formatZodError(errorOf(crawlRequestSchema, { url: 'https://example.com', scrapeOptions: { formats: ['rawBase64'] } }));
    expect(out.error).toBe('scrapeOptions.formats.0: Format "rawBase64" is not supported by this service');
  });

  it('prefers the unrecognized-key message whenever such an issue exists', () => {
    const out = formatZodError(errorOf(crawlRequestSchema, { url: 'ftp://x.com', maxDepth: 2 }));
    expect(out.error).toBe(UNRECOGNIZED_KEY_MESSAGE);
    expect(out.details).toContainEqual({
      code: 'unrecognized_keys',
      keys: ['maxDepth'],
      path: [],
      message: 'Unrecognized key: "maxDepth"',
    });
  });

  it('finds unrecognized keys inside union branches', () => {
    const schema = z.union([z.strictObject({ a: z.string() }), z.strictObject({ b: z.number() })]);
    expect(formatZodError(errorOf(schema, { a: 'x', c: 1 })).error).toBe(UNRECOGNIZED_KEY_MESSAGE);
  });

  it('uses the bare message for a root issue', () => {
    expect(formatZodError(errorOf(crawlRequestSchema, null)).error).toBe('Invalid input: expected object, received null');
  });

  it('produces JSON-serialisable details without inputs', () => {
    const big = z.strictObject({ n: z.bigint().max(5n) });
    const out = formatZodError(errorOf(big, { n: 10n }));
    expect(() => JSON.stringify(out)).not.toThrow();
    expect(out.details[0]).toMatchObject({ code: 'too_big', maximum: '5', path: ['n'] });
    const body = formatZodError(errorOf(crawlRequestSchema, { url: 'https://example.com', prompt: 'x'.repeat(10001) }));
    expect(JSON.stringify(body.details)).not.toContain('xxxxxxxx');
  });
});
