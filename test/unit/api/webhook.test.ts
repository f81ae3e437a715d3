import { describe, expect, it } from 'vitest';
import { webhookSchema } from '../../../src/jobs/webhooks/webhook-schema.ts';
import { rejectMessage } from './helpers.ts';

const ALL_EVENTS = ['started', 'page', 'completed', 'failed'];

describe('webhookSchema', () => {
  it('normalises a URL string to an object with defaults', () => {
    expect(webhookSchema.parse('https://hooks.example.com/x')).toStrictEqual({
      url: 'https://hooks.example.com/x',
      headers: {},
      metadata: {},
      events: ALL_EVENTS,
    });
  });

  it('applies defaults to an object with only url', () => {
    expect(webhookSchema.parse({ url: 'hooks.example.com' })).toStrictEqual({
      url: 'http://hooks.example.com',
      headers: {},
      metadata: {},
      events: ALL_EVENTS,
    });
  });

  it('keeps headers, JSON metadata and events (deduplicated)', () => {
    const parsed = webhookSchema.parse({
      url: 'http://localhost:4000/hook',
      headers: { Authorization: 'Bearer t' },
      metadata: { run: 7, tags: ['a'], nested: { ok: true }, note: null },
      events: ['page', 'completed', 'page'],
    });
    expect(parsed).toStrictEqual({
      url: 'http://localhost:4000/hook',
      headers: { Authorization: 'Bearer t' },
      metadata: { run: 7, tags: ['a'], nested: { ok: true }, note: null },
      events: ['page', 'completed'],
    });
  });

  it('returns fresh default objects', () => {
    const a = webhookSchema.parse('https://hooks.example.com');
    a.events.pop();
    a.headers.x = 'y';
    const b = webhookSchema.parse('https://hooks.example.com');
    expect(b.events).toEqual(ALL_EVENTS);
    expect(b.headers).toEqual({});
  });

  it.each([
    ['ftp://hooks.example.com', 'url: URL uses unsupported protocol'],
    [{ url: 'ftp://hooks.example.com' }, 'url: URL uses unsupported protocol'],
    [{}, 'url: url is required'],
    [{ url: 'https://h.example.com', events: ['deleted'] }, 'events.0: Invalid option: expected one of "started"|"page"|"completed"|"failed"'],
    [{ url: 'https://h.example.com', headers: { 'x-service-signature': 'a' } }, 'headers: The following headers are not allowed: x-service-signature'],
    [{ url: 'https://h.example.com', headers: { 'X-SERVICE-SIGNATURE': 'a' } }, 'headers: The following headers are not allowed: x-service-signature'],
    [{ url: 'https://h.example.com', headers: { 'X-Count': 1 } }, 'headers.X-Count: Invalid input: expected string, received number'],
    [42, 'webhook must be a URL string or an object with a url'],
  ])('rejects %j', (input, message) => {
    expect(rejectMessage(webhookSchema, input).error).toBe(message);
  });

  it("takes an empty events list, the SDKs' way of asking for no events", () => {
    expect(webhookSchema.parse({ url: 'https://h.example.com', events: [] }).events).toEqual([]);
  });

  it('rejects unknown keys', () => {
    expect(rejectMessage(webhookSchema, { url: 'https://h.example.com', secret: 's' }).error).toBe(
      'Unrecognized key in body -- please review the v2 API documentation for request body changes',
    );
  });
});
