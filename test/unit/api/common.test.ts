import { describe, expect, it } from 'vitest';
import { httpUrl, integration, normaliseHttpUrl, origin } from '../../../src/platform/http/common-schemas.ts';

describe('httpUrl', () => {
  it.each([
    ['example.com', 'http://example.com'],
    ['  https://example.com/path?q=1  ', 'https://example.com/path?q=1'],
    ['HTTPS://Example.COM', 'HTTPS://Example.COM'],
    ['localhost:3000/x', 'http://localhost:3000/x'],
    ['http://localhost', 'http://localhost'],
    ['example.com:8080/docs', 'http://example.com:8080/docs'],
    ['http://127.0.0.1:8080/', 'http://127.0.0.1:8080/'],
    ['http://[::1]/', 'http://[::1]/'],
    ['https://bücher.de', 'https://bücher.de'],
    ['https://example.com.', 'https://example.com.'],
    ['https://sub.example.co.uk/a', 'https://sub.example.co.uk/a'],
  ])('accepts %j as %j', (input, expected) => {
    expect(httpUrl.parse(input)).toBe(expected);
  });

  it.each([
    ['ftp://x.com', 'URL uses unsupported protocol'],
    ['file:///etc/passwd', 'URL uses unsupported protocol'],
    ['javascript:alert(1)', 'URL uses unsupported protocol'],
    ['mailto:me@example.com', 'URL uses unsupported protocol'],
    ['http://intranet', 'URL must have a valid top-level domain or be an IP address'],
    ['https://example.c', 'URL must have a valid top-level domain or be an IP address'],
    ['https://example.c0m', 'URL must have a valid top-level domain or be an IP address'],
    ['http://123', 'URL must have a valid top-level domain or be an IP address'],
    ['http://a..com', 'URL must have a valid top-level domain or be an IP address'],
    ['', 'Invalid URL'],
    ['http://exa mple.com', 'Invalid URL'],
  ])('rejects %j with %j', (input, message) => {
    const result = httpUrl.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(message);
  });

  it('rejects non-strings and undefined with readable messages', () => {
    expect(httpUrl.safeParse(undefined).error?.issues[0]?.message).toBe('url is required');
    expect(httpUrl.safeParse(42).error?.issues[0]?.message).toBe('url must be a string');
  });

  it('normaliseHttpUrl reports the outcome without throwing', () => {
    expect(normaliseHttpUrl('x.com')).toEqual({ ok: true, url: 'http://x.com' });
    expect(normaliseHttpUrl('ftp://x.com')).toEqual({ ok: false, message: 'URL uses unsupported protocol' });
  });
});

describe('origin and integration', () => {
  it('are optional strings; integration may be null', () => {
    expect(origin.parse(undefined)).toBeUndefined();
    expect(origin.parse('js-sdk@4.42.0')).toBe('js-sdk@4.42.0');
    expect(origin.safeParse(1).success).toBe(false);
    expect(integration.parse(null)).toBeNull();
    expect(integration.parse(undefined)).toBeUndefined();
    expect(integration.parse('zapier')).toBe('zapier');
  });
});
