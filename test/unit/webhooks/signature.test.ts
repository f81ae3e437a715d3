import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SIGNATURE_HEADER, signWebhookBody, verifyWebhookSignature } from '../../../src/jobs/webhooks/signature.ts';

const SECRET = 'whsec_test';
const BODY = '{"type":"crawl.page","data":{"title":"Café"}}';
const EXPECTED = `sha256=${createHmac('sha256', SECRET).update(Buffer.from(BODY, 'utf8')).digest('hex')}`;

describe('signWebhookBody', () => {
  it('is sha256= and the lower-case hex HMAC of the UTF-8 bytes', () => {
    expect(SIGNATURE_HEADER).toBe('X-Service-Signature');
    expect(signWebhookBody(BODY, SECRET)).toBe(EXPECTED);
    expect(signWebhookBody(Buffer.from(BODY), SECRET)).toBe(EXPECTED);
    expect(EXPECTED).toMatch(/^sha256=[0-9a-f]{64}$/);
  });

  it('changes with any byte of the body and with the secret', () => {
    expect(signWebhookBody(`${BODY} `, SECRET)).not.toBe(EXPECTED);
    expect(signWebhookBody(BODY, `${SECRET}2`)).not.toBe(EXPECTED);
  });
});

describe('verifyWebhookSignature', () => {
  it('accepts the signature of the raw body, as a string or bytes', () => {
    expect(verifyWebhookSignature(BODY, EXPECTED, SECRET)).toBe(true);
    expect(verifyWebhookSignature(Buffer.from(BODY), EXPECTED, SECRET)).toBe(true);
    expect(verifyWebhookSignature(BODY, EXPECTED.toUpperCase().replace('SHA256=', 'sha256='), SECRET)).toBe(true);
  });

  it('rejects another body, another secret, or a re-serialised body', () => {
    expect(verifyWebhookSignature(`${BODY} `, EXPECTED, SECRET)).toBe(false);
    expect(verifyWebhookSignature(BODY, EXPECTED, 'other')).toBe(false);
    expect(verifyWebhookSignature(JSON.stringify(JSON.parse(BODY), null, 2), EXPECTED, SECRET)).toBe(false);
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['without the prefix', EXPECTED.slice('sha256='.length)],
    ['another algorithm', EXPECTED.replace('sha256=', 'sha1=')],
    ['truncated', EXPECTED.slice(0, -2)],
    ['too long', `${EXPECTED}00`],
    ['not hex', `sha256=${'z'.repeat(64)}`],
    ['odd length', `sha256=${'a'.repeat(63)}`],
  ])('returns false, without throwing, for a %s header', (_label, header) => {
    expect(verifyWebhookSignature(BODY, header, SECRET)).toBe(false);
  });
});
