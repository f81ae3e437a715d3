// API keys are shown once at creation and stored only as a SHA-256 hash. Keys
// are 128 random bits, so a fast hash is enough: there is nothing to brute-force.
import { createHash, randomBytes } from 'node:crypto';

const PREFIX = 'fc-';

export function generateApiKey(): string {
  return `${PREFIX}${randomBytes(16).toString('hex')}`;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** What listings show: enough to tell keys apart, useless to an attacker. */
export function keyPrefix(key: string): string {
  return key.slice(0, PREFIX.length + 6);
}
