import { describe, expect, it } from 'vitest';
import { parseTrustProxy } from '../../../src/platform/http/trust-proxy.ts';

describe('GATEWAY_TRUST_PROXY', () => {
  it('trusts nobody when unset', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
  });

  it.each([
    ['true', true],
    ['FALSE', false],
    ['1', 1],
    ['2', 2],
    ['loopback', ['loopback']],
    ['10.0.0.0/8, 192.168.1.7,uniquelocal', ['10.0.0.0/8', '192.168.1.7', 'uniquelocal']],
    ['fd00::/8,::1', ['fd00::/8', '::1']],
  ])('accepts %j', (text, expected) => {
    expect(parseTrustProxy(text)).toEqual(expected);
  });

  it.each(['yes', '10.0.0.0/33', '::1/129', 'proxy.internal', '10.0.0', ',', '1.5'])('refuses %j at start-up', (text) => {
    expect(() => parseTrustProxy(text)).toThrow(/^GATEWAY_TRUST_PROXY must be true, false, a number of proxy hops, or a comma-separated list/);
  });
});
