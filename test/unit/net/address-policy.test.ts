import { describe, expect, it } from 'vitest';
import { addressBlockReason, BlockedAddressError, classifyAddress, parseAllowlist, type AddressPolicy } from '../../../src/platform/net/address-policy.ts';

const GUARDED: AddressPolicy = { allowPrivate: false, allowlist: [] };

describe('classifyAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.5', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.1.1', 'link-local'],
    ['169.254.169.254', 'cloud-metadata'],
    ['100.100.100.200', 'cloud-metadata'],
    ['100.64.0.1', 'CGNAT'],
    ['100.127.255.255', 'CGNAT'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['192.0.0.192', 'reserved'],
    ['192.0.2.10', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['fd00:ec2::254', 'cloud-metadata'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'reserved'],
    ['::127.0.0.1', 'reserved'],
    ['fec0::1', 'reserved'],
    ['[::1]', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::FFFF:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'cloud-metadata'],
    ['64:ff9b::a9fe:a9fe', 'cloud-metadata'],
    ['2002:c0a8:101::1', 'private'],
    ['example.com', 'invalid'],
  ])('%s is %s', (ip, label) => {
    expect(classifyAddress(ip)).toBe(label);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.215.14',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700::1',
    '2001:4860:4860::8888',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ])('%s is public', (ip) => {
    expect(classifyAddress(ip)).toBeUndefined();
  });
});

describe('addressBlockReason', () => {
  it('blocks non-public addresses and lets public ones through', () => {
    expect(addressBlockReason('10.0.0.5', GUARDED)).toBe('private');
    expect(addressBlockReason('8.8.8.8', GUARDED)).toBeUndefined();
  });

  it('never blocks when private addresses are allowed', () => {
    const open: AddressPolicy = { allowPrivate: true, allowlist: [] };
    for (const ip of ['127.0.0.1', '169.254.169.254', '::1', 'fd00:ec2::254']) expect(addressBlockReason(ip, open)).toBeUndefined();
  });

  it('lets allowlisted addresses and CIDRs through, including their mapped IPv6 form', () => {
    const policy: AddressPolicy = { allowPrivate: false, allowlist: ['10.1.0.0/16', '127.0.0.1', 'fd00:1234::/32'] };
    expect(addressBlockReason('10.1.200.3', policy)).toBeUndefined();
    expect(addressBlockReason('10.2.0.1', policy)).toBe('private');
    expect(addressBlockReason('127.0.0.1', policy)).toBeUndefined();
    expect(addressBlockReason('::ffff:127.0.0.1', policy)).toBeUndefined();
    expect(addressBlockReason('127.0.0.2', policy)).toBe('loopback');
    expect(addressBlockReason('fd00:1234:5::1', policy)).toBeUndefined();
    expect(addressBlockReason('fd00:1235::1', policy)).toBe('unique-local');
  });

  it('rejects a policy carrying a bad allowlist entry', () => {
    expect(() => addressBlockReason('10.0.0.1', { allowPrivate: false, allowlist: ['10.0.0.0/40'] })).toThrow(/allowlist entry "10.0.0.0\/40"/);
  });
});

describe('parseAllowlist', () => {
  it('splits and trims a comma-separated setting', () => {
    expect(parseAllowlist(' 10.0.0.0/8, 127.0.0.1 ,,fd00::/8 ')).toEqual(['10.0.0.0/8', '127.0.0.1', 'fd00::/8']);
    expect(parseAllowlist(undefined)).toEqual([]);
    expect(parseAllowlist('')).toEqual([]);
  });

  it.each(['localhost', '10.0.0.0/33', 'fd00::/129', '10.0.0/8', '10.0.0.1/', '10.0.0.1/8/8', '::1/-1', '[::1]', '*'])('rejects %s', (entry) => {
    expect(() => parseAllowlist(`10.0.0.1,${entry}`)).toThrow(`Invalid private-address allowlist entry "${entry}"`);
  });
});

describe('BlockedAddressError', () => {
  it('explains which host resolved to what and how to allow it', () => {
    const err = new BlockedAddressError('example.internal', '10.0.0.5', 'private', 'http://example.internal/');
    expect(err).toBeInstanceOf(Error);
    expect(err.code).toBe('BLOCKED_ADDRESS');
    expect(err.host).toBe('example.internal');
    expect(err.address).toBe('10.0.0.5');
    expect(err.message).toBe(
      'Refused to crawl http://example.internal/: example.internal resolves to 10.0.0.5, a private address. ' +
        'Private, loopback, link-local and cloud-metadata addresses are blocked ' +
        '(set CRAWL_ALLOW_PRIVATE_ADDRESSES=true or CRAWL_PRIVATE_ADDRESS_ALLOWLIST to allow them).',
    );
  });

  it('words literal IPs and missing URLs naturally', () => {
    expect(new BlockedAddressError('::', '::', 'unspecified').message).toMatch(/^Refused to connect to ::: :: is an unspecified address\./);
    expect(new BlockedAddressError('127.0.0.2', '127.0.0.2', 'loopback').forUrl('http://127.0.0.2/x').message).toMatch(
      /^Refused to crawl http:\/\/127\.0\.0\.2\/x: 127\.0\.0\.2 is a loopback address\./,
    );
  });
});
