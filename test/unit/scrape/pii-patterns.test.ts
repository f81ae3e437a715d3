// The pattern detectors of redactPII: each entity's true positives, the look-alikes
// that must stay, the replace styles, and time linear in hostile text.
import { describe, expect, it } from 'vitest';
import { findPatternSpans, ibanValid, shannonEntropy, type PatternMode } from '../../../src/page/redaction/pii-patterns.ts';
import { mergeSpans, replaceSpans, type PiiEntity } from '../../../src/page/redaction/pii-spans.ts';

const PATTERN_ENTITIES = new Set<PiiEntity>(['EMAIL', 'PHONE', 'FINANCIAL', 'SECRET']);

function redact(text: string, mode: PatternMode = 'accurate', entities = PATTERN_ENTITIES): string {
  return replaceSpans(text, findPatternSpans(text, entities, mode), 'tag');
}

/** What the detectors take out of `text`, with the entity each is named. */
function found(text: string, mode: PatternMode = 'accurate'): [string, PiiEntity][] {
  return mergeSpans(findPatternSpans(text, PATTERN_ENTITIES, mode)).map((s) => [text.slice(s.start, s.end), s.entity]);
}

describe('EMAIL', () => {
  it.each(['jane.doe@example.com', 'j+tag@mail.example.co.uk', 'A_B-c%d@sub-domain.example.museum'])('finds %s', (email) => {
    expect(found(`write to ${email}, today`)).toEqual([[email, 'EMAIL']]);
  });

  it.each(['logo@2x.png', 'icon@3x.webp', 'user@localhost', 'a@b', '@handle', 'name@.example.com', 'npm i pkg@1.2.3'])('leaves %s', (text) => {
    expect(found(text)).toEqual([]);
  });
});

describe('PHONE', () => {
  it.each(['+1 (555) 123-4567', '555-123-4567', '(555) 123-4567', '+44 20 7946 0958', '+49 30 901820', '555.123.4567', '020 7946 0958'])(
    'finds %s',
    (phone) => {
      expect(found(`call ${phone} now`)).toEqual([[phone, 'PHONE']]);
    },
  );

  it('finds a bare number only next to a word saying so, or in aggressive mode', () => {
    expect(found('Phone: 5551234567')).toEqual([['5551234567', 'PHONE']]);
    expect(found('Order 5551234567 shipped')).toEqual([]);
    expect(found('Order 5551234567 shipped', 'aggressive')).toEqual([['5551234567', 'PHONE']]);
  });

  it.each([
    'on 2024-01-15 at noon',
    'dated 15/01/2024',
    'server 192.168.100.200',
    'version 1.2.3.4',
    'ISBN 978-3-16-148410-0',
    'ZIP 12345-6789',
    'in 2019 2020 2021',
    'price 1,234,567',
    'id ab5551234567',
    'SKU-555-123-4567X',
  ])('leaves %s', (text) => {
    expect(found(text)).toEqual([]);
  });

  it('splits numbers written side by side', () => {
    expect(found('tel 555-123-4567 4111 1111 1111 1111')).toEqual([
      ['555-123-4567', 'PHONE'],
      ['4111 1111 1111 1111', 'FINANCIAL'],
    ]);
  });
});

describe('FINANCIAL', () => {
  it.each(['4111 1111 1111 1111', '4111-1111-1111-1111', '5500005555555559', '378282246310005', '6011111111111117', '3530111333300000'])(
    'finds the card number %s (Luhn-valid, known issuer)',
    (card) => {
      expect(found(`card ${card}.`)).toEqual([[card, 'FINANCIAL']]);
    },
  );

  it.each([
    ['4111 1111 1111 1112', 'Luhn fails'],
    ['1234567812345670', 'Luhn holds but no issuer starts with 12'],
    ['4111 1111-1111 1111', 'mixed separators'],
    ['9999999999999995', 'no issuer'],
  ])('leaves %s (%s)', (text) => {
    expect(found(`ref ${text}`).filter(([, e]) => e === 'FINANCIAL')).toEqual([]);
  });

  it('finds IBANs with a valid checksum, compact or in groups, and leaves others', () => {
    expect(found('IBAN GB82 WEST 1234 5698 7654 32 please')).toEqual([['GB82 WEST 1234 5698 7654 32', 'FINANCIAL']]);
    expect(found('DE89370400440532013000')).toEqual([['DE89370400440532013000', 'FINANCIAL']]);
    expect(found('GB82WEST12345698765433 and GB82 WEST 1234 5698 7654')).toEqual([]);
    expect(ibanValid('FR1420041010050500013M02606')).toBe(true);
    expect(ibanValid('XX82WEST12345698765432')).toBe(false);
  });

  it('finds US social security numbers and leaves the ones never issued', () => {
    expect(found('SSN 123-45-6789')).toEqual([['123-45-6789', 'FINANCIAL']]);
    for (const never of ['000-12-3456', '666-12-3456', '912-34-5678', '123-00-4567', '123-45-0000']) expect(found(`SSN ${never}`)).toEqual([]);
  });
});

describe('SECRET', () => {
  it.each([
    'AKIAIOSFODNN7EXAMPLE',
    'ghp_abcdefghijklmnopqrstuvwxyz0123456789',
    'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz',
    'xoxb-123456789012-abcdefghijkl',
    'sk_live_4eC39HqLyjWDarjtT1zdp7dc',
    'AIzaSyA-abcdefghijklmnopqrstuvwxyz01234',
    'sk-ant-api03-abcdefghijklmnopqrstuvwxyz',
    'sk-proj-abcdefghijklmnopqrstuvwxyz012345',
    'fc-0123456789abcdef0123456789abcdef',
    'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
  ])('finds the key %s', (key) => {
    expect(found(`key ${key} here`)).toEqual([[key, 'SECRET']]);
  });

  it('finds a private key block, with or without its END line', () => {
    const block = '-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA7\nabc+/=\n-----END RSA PRIVATE KEY-----';
    expect(found(`before\n${block}\nafter`)).toEqual([[block, 'SECRET']]);
    expect(redact('-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAA\n')).toBe('<SECRET>');
    expect(found('-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----')).toEqual([]);
  });

  it('finds bearer tokens, URL passwords and secret-named values', () => {
    expect(redact('Authorization: Bearer abcdefghijklmnopqrstuvwxyz123456')).toBe('Authorization: Bearer <SECRET>');
    expect(redact('postgres://app:s3cr3t-pw@db.internal:5432/app')).toBe('postgres://app:<SECRET>@db.internal:5432/app');
    expect(redact('DB_PASSWORD=hunter22')).toBe('DB_PASSWORD=<SECRET>');
    expect(redact('{"client_secret": "a8Fk2LmQ9zXw7Pq"}')).toBe('{"client_secret": "<SECRET>"}');
    expect(redact('api_key = 9f8e7d6c5b4a39281716')).toBe('api_key = <SECRET>');
  });

  it.each([
    'api_key=YOUR_API_KEY',
    'token: string',
    'password: ********',
    'secret: true',
    'api_key = "<your key>"',
    'token=${TOKEN}',
    'The token is valid for an hour.',
    'Use sk-learn for that.',
    'commit 4f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39',
    'api_key=aaaaaaaaaaaaaaaa',
    'token: documentation',
  ])('leaves %s', (text) => {
    expect(found(text)).toEqual([]);
  });

  it('in aggressive mode also takes long mixed tokens and lower-entropy values', () => {
    const token = 'Zk3mQ8pL2xW7vN4bR9tY6uJ1hG5fD0sA';
    expect(found(`value ${token} end`)).toEqual([]);
    expect(found(`value ${token} end`, 'aggressive')).toEqual([[token, 'SECRET']]);
    expect(found('token=abcdab12', 'accurate')).toEqual([]);
    expect(found('token=abcdab12', 'aggressive')).toEqual([['abcdab12', 'SECRET']]);
    expect(shannonEntropy('aaaa')).toBe(0);
  });
});

describe('replace styles', () => {
  const text = 'Mail jane@example.com, call 555-123-4567.';
  const spans = findPatternSpans(text, PATTERN_ENTITIES, 'accurate');

  it('tag, mask (one star per character) and remove', () => {
    expect(replaceSpans(text, spans, 'tag')).toBe('Mail <EMAIL>, call <PHONE>.');
    expect(replaceSpans(text, spans, 'mask')).toBe('Mail ****************, call ************.');
    expect(replaceSpans(text, spans, 'remove')).toBe('Mail , call .');
  });

  it('writes a tag escaped inside HTML, and masks a surrogate pair as one character', () => {
    expect(
      replaceSpans(
        '<a href="mailto:jane@example.com">x</a>',
        findPatternSpans('<a href="mailto:jane@example.com">x</a>', PATTERN_ENTITIES, 'accurate'),
        'tag',
        true,
      ),
    ).toBe('<a href="mailto:&lt;EMAIL&gt;">x</a>');
    expect(replaceSpans('a😀b', [{ start: 1, end: 3, entity: 'PERSON' }], 'mask')).toBe('a*b');
  });

  it('merges overlapping spans under the longest one', () => {
    expect(
      mergeSpans([
        { start: 0, end: 4, entity: 'PHONE' },
        { start: 2, end: 10, entity: 'FINANCIAL' },
        { start: 12, end: 14, entity: 'EMAIL' },
      ]),
    ).toEqual([
      { start: 0, end: 10, entity: 'FINANCIAL' },
      { start: 12, end: 14, entity: 'EMAIL' },
    ]);
  });

  it('looks only for the entities asked for', () => {
    expect(redact('jane@example.com 555-123-4567', 'accurate', new Set(['PHONE']))).toBe('jane@example.com <PHONE>');
  });
});

describe('hostile text', () => {
  it.each([
    ['@', '@'.repeat(2_000_000)],
    ['digits and spaces', '1 '.repeat(1_000_000)],
    ['IBAN starts', 'GB82'.repeat(500_000)],
    ['key prefixes', 'AKIA'.repeat(500_000)],
    ['secret keys', 'password:'.repeat(200_000)],
    ['URL schemes', '://a:'.repeat(400_000)],
    ['JWT starts', 'eyJ.'.repeat(500_000)],
  ])('scans 2 MB of %s in linear time', (_, text) => {
    const started = performance.now();
    findPatternSpans(text, PATTERN_ENTITIES, 'aggressive');
    // Linear scans take well under a second for 2 MB even on a loaded machine; a quadratic one would take minutes.
    expect(performance.now() - started).toBeLessThan(15_000);
  });
});
