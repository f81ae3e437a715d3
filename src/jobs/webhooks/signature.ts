// Deliveries are signed so that a receiver can tell them from requests anyone
// who learns its URL could send. The HMAC covers the body bytes exactly as sent:
// a receiver must verify the raw body, before any JSON parsing re-serialises it.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-Service-Signature';

const SIGNATURE_FORMAT = /^sha256=([0-9a-fA-F]{64})$/;

function hmac(body: string | Buffer, secret: string): Buffer {
  return createHmac('sha256', secret).update(body).digest();
}

/** The X-Service-Signature value for `body`: `sha256=` and the lower-case hex HMAC-SHA256. */
export function signWebhookBody(body: string | Buffer, secret: string): string {
  return `sha256=${hmac(body, secret).toString('hex')}`;
}

/** Whether `header` is the signature of `rawBody` under `secret`; false for a missing or malformed header. */
export function verifyWebhookSignature(rawBody: Buffer | string, header: string | undefined, secret: string): boolean {
  const match = SIGNATURE_FORMAT.exec(header?.trim() ?? '');
  if (!match) return false;
  // Constant time, so that how long a rejection takes does not reveal how much of a forged signature was right.
  return timingSafeEqual(Buffer.from(match[1], 'hex'), hmac(rawBody, secret));
}
