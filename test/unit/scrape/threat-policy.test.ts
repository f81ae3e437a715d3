// Threat protection's local rules: globs and domains, rule order (whitelist wins),
// blocked TLDs, and what the cloud modes do without a scanner (failurePolicy).
import { describe, expect, it } from 'vitest';
import { checkThreat, globMatches, hostMatchesEntry, threatPolicy, threatRefusal, unscannedWarning } from '../../../src/page/threat-policy.ts';

describe('globMatches and hostMatchesEntry', () => {
  it.each([
    ['*.example.com', 'a.example.com', true],
    ['*.example.com', 'a.b.example.com', true],
    ['*.example.com', 'example.com', false],
    ['*.example.com', 'badexample.com', false],
    ['cdn*.example.com', 'cdn12.example.com', true],
    ['cdn*.example.com', 'img.example.com', false],
    ['*evil*', 'my-evil-site.org', true],
    ['a*b*c', 'abc', true],
    ['a*b*c', 'acb', false],
    ['*', 'anything.test', true],
  ])('glob %s against %s: %s', (glob, host, expected) => {
    expect(globMatches(glob, host)).toBe(expected);
  });

  it('a plain domain matches itself and its subdomains, nothing else', () => {
    expect(hostMatchesEntry('example.com', 'example.com')).toBe(true);
    expect(hostMatchesEntry('www.example.com', 'example.com')).toBe(true);
    expect(hostMatchesEntry('notexample.com', 'example.com')).toBe(false);
    expect(hostMatchesEntry('example.com.evil.test', 'example.com')).toBe(false);
  });

  it('is quick on hostile globs', () => {
    const started = performance.now();
    for (let i = 0; i < 1000; i++) globMatches(`${'*a'.repeat(120)}*b`, 'a'.repeat(253));
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe('checkThreat', () => {
  const manual = threatPolicy({
    mode: 'manual-only',
    blacklist: ['*.evil.test', 'Bad.Example.'],
    whitelist: ['safe.evil.test'],
    blockedTlds: ['.ZIP', 'co.uk'],
  })!;

  it('blocks by blacklist (globs and domains, any case) and by TLD, naming the rule and the entry', () => {
    expect(checkThreat('https://a.evil.test/x', manual)).toEqual({
      allowed: false,
      rule: 'blacklist',
      reason: 'This URL (https://a.evil.test/x) is blocked by threat protection (rule: blacklist: threatProtection.blacklist lists "*.evil.test").',
    });
    expect(checkThreat('http://WWW.BAD.EXAMPLE./', manual)).toMatchObject({ allowed: false, rule: 'blacklist' });
    expect(checkThreat('http://files.download.zip/a', manual)).toMatchObject({ allowed: false, rule: 'blocked-tld' });
    expect(checkThreat('http://shop.example.co.uk/', manual)).toMatchObject({ allowed: false, rule: 'blocked-tld' });
    expect(checkThreat('http://example.com/', manual)).toEqual({ allowed: true, rule: 'default-allow' });
  });

  it('lets the whitelist win over the blacklist and the TLDs', () => {
    expect(checkThreat('https://safe.evil.test/', manual)).toEqual({ allowed: true, rule: 'whitelist' });
    const tld = threatPolicy({ mode: 'manual-only', whitelist: ['ok.zip'], blockedTlds: ['zip'] })!;
    expect(checkThreat('https://ok.zip/', tld).allowed).toBe(true);
  });

  it('compares hosts as the URL parser writes them (IPv4 forms, IDNs)', () => {
    const policy = threatPolicy({ mode: 'manual-only', blacklist: ['195.127.0.11', 'bücher.de'] })!;
    expect(checkThreat('http://3279880203/', policy).allowed).toBe(false);
    expect(checkThreat('http://xn--bcher-kva.de/', policy).allowed).toBe(false);
  });

  it('without a scanner, failurePolicy decides what no local rule did (closed by default)', () => {
    for (const mode of ['normal', 'zscaler'] as const) {
      const closed = threatPolicy({ mode, whitelist: ['ok.test'] })!;
      expect(checkThreat('https://ok.test/', closed).allowed).toBe(true);
      const refusal = threatRefusal('https://other.test/', closed);
      expect(refusal).toMatch(
        /rule: provider-failure: threatProtection\.mode "\w+" scans with .*, which this service does not have, and failurePolicy "closed"/,
      );
      const open = threatPolicy({ mode, failurePolicy: 'open', blacklist: ['bad.test'] })!;
      expect(checkThreat('https://other.test/', open)).toEqual({ allowed: true, rule: 'provider-failure', unscanned: true });
      expect(checkThreat('https://bad.test/', open).allowed).toBe(false);
      expect(unscannedWarning(open)).toMatch(/^threatProtection: mode "\w+" scans with .*failurePolicy "open" let the page through without a scan/);
    }
    expect(unscannedWarning(manual)).toBeUndefined();
  });

  it('is off without options, with mode off, or without lists and mode; lists without a mode are enforced', () => {
    expect(threatPolicy(undefined)).toBeUndefined();
    expect(threatPolicy({ mode: 'off', blacklist: ['a.test'] })).toBeUndefined();
    expect(threatPolicy({ riskScoreThreshold: 5 })).toBeUndefined();
    expect(threatPolicy({ blacklist: ['a.test'] })).toMatchObject({ mode: 'manual-only', blacklist: ['a.test'] });
    expect(threatRefusal('https://a.test/', threatPolicy({ blacklist: ['a.test'] }))).toMatch(/blocked by threat protection/);
    expect(threatRefusal('https://a.test/', undefined)).toBeUndefined();
  });
});
