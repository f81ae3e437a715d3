import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/platform/domain-error.ts';
import { parseQueryText } from '../../../src/features/search/query/parse-query.ts';
import { parseTbs } from '../../../src/features/search/query/parse-tbs.ts';
import { searchQueryOf } from '../../../src/features/search/query/search-query-of.ts';
import { searchRequestSchema } from '../../../src/features/search/search-request.ts';

const refused = (query: string) => {
  try {
    parseQueryText(query);
  } catch (err) {
    expect(err).toBeInstanceOf(DomainError);
    return (err as DomainError).message;
  }
  throw new Error(`${query} was accepted`);
};

describe('query operators', () => {
  it('words and exact phrases, excluded with a minus', () => {
    const q = parseQueryText('temporal "durable execution" -flaky -"side effects"');
    expect(q.terms).toEqual({
      include: [
        { kind: 'word', text: 'temporal' },
        { kind: 'phrase', text: 'durable execution' },
      ],
      exclude: [
        { kind: 'word', text: 'flaky' },
        { kind: 'phrase', text: 'side effects' },
      ],
    });
  });

  it('site: with subdomains and paths, and -site:', () => {
    const q = parseQueryText('docs site:Example.com -site:https://blog.example.com/ site:example.org/guides/');
    expect(q.sites).toEqual({ include: ['example.com', 'example.org/guides'], exclude: ['blog.example.com'] });
  });

  it('filetype: and -filetype:', () => {
    expect(parseQueryText('report filetype:PDF -filetype:.docx').fileTypes).toEqual({ include: ['pdf'], exclude: ['docx'] });
  });

  it('inurl:, intitle: and their negations', () => {
    const q = parseQueryText('inurl:Blog -inurl:tag intitle:"release notes" -intitle:draft');
    expect(q.inUrl).toEqual({ include: ['blog'], exclude: ['tag'] });
    expect(q.inTitle).toEqual({ include: ['release notes'], exclude: ['draft'] });
  });

  it('allinurl: and allintitle: take every word after them', () => {
    expect(parseQueryText('allinurl: docs api -v1').inUrl).toEqual({ include: ['docs', 'api'], exclude: ['v1'] });
    const q = parseQueryText('news allintitle:rust async');
    expect(q.inTitle.include).toEqual(['rust', 'async']);
    expect(q.terms.include).toEqual([{ kind: 'word', text: 'news' }]);
  });

  it('related:, imagesize: and larger:', () => {
    const q = parseQueryText('related:www.example.com imagesize:1920x1080 larger:800×600');
    expect(q.related).toBe('www.example.com');
    expect(q.imageSize).toEqual({ width: 1920, height: 1080 });
    expect(q.largerThan).toEqual({ width: 800, height: 600 });
  });

  it('leaves unknown words with colons as words, and a lone minus as nothing', () => {
    expect(parseQueryText('http:thing - x').terms.include).toEqual([
      { kind: 'word', text: 'http:thing' },
      { kind: 'word', text: 'x' },
    ]);
  });

  it('names the position of what is malformed', () => {
    expect(refused('a "unterminated')).toBe('Malformed query at position 3: a quotation mark is not closed');
    expect(refused('x site: y')).toBe('Malformed query at position 3: site: has no value');
    expect(refused('imagesize:big')).toMatch(/^Malformed query at position 1: imagesize: needs WIDTHxHEIGHT/);
    expect(refused('ok filetype:p/df')).toMatch(/^Malformed query at position 4: filetype: needs an extension/);
    expect(refused('site:exa_mple..com')).toMatch(/^Malformed query at position 1: "exa_mple..com" is not a host name/);
    expect(refused('-related:a.com')).toMatch(/related: cannot be negated/);
    expect(refused('related:a.com related:b.com')).toMatch(/^Malformed query at position 15: only one related:/);
    expect(refused('ab"c')).toMatch(/^Malformed query at position 3: a quotation mark inside a word/);
    expect(refused('""')).toMatch(/an empty phrase/);
    expect(refused(Array.from({ length: 65 }, (_, i) => `w${i}`).join(' '))).toMatch(/more than 64 terms/);
  });
});

describe('tbs', () => {
  const now = new Date('2026-11-24T12:00:00.000Z');
  it('qdr ranges, with counts', () => {
    expect(parseTbs('qdr:h', now).from).toEqual(new Date('2026-11-24T11:00:00.000Z'));
    expect(parseTbs('qdr:d', now).from).toEqual(new Date('2026-11-23T12:00:00.000Z'));
    expect(parseTbs('qdr:w', now).from).toEqual(new Date('2026-11-17T12:00:00.000Z'));
    expect(parseTbs('qdr:m', now).from).toEqual(new Date('2026-10-24T12:00:00.000Z'));
    expect(parseTbs('qdr:y', now).from).toEqual(new Date('2025-11-24T12:00:00.000Z'));
    expect(parseTbs('qdr:d3', now).from).toEqual(new Date('2026-11-21T12:00:00.000Z'));
  });
  it('custom ranges are whole UTC days, and sbd sorts by date', () => {
    expect(parseTbs('cdr:1,cd_min:1/2/2026,cd_max:01/31/2026', now)).toEqual({
      from: new Date('2026-01-02T00:00:00.000Z'),
      to: new Date('2026-01-31T23:59:59.999Z'),
      sortByDate: false,
    });
    expect(parseTbs('sbd:1,qdr:w', now)).toMatchObject({ sortByDate: true, from: new Date('2026-11-17T12:00:00.000Z'), preset: { unit: 'w', count: 1 } });
    expect(parseTbs(undefined, now)).toEqual({ sortByDate: false });
  });
  it('refuses what it cannot read', () => {
    for (const bad of [
      'qdr:x',
      'qdr:d0',
      'cdr:1,cd_min:2026-01-01',
      'cdr:1,cd_min:02/30/2026',
      'cd_min:01/01/2026',
      'cdr:1,cd_min:02/01/2026,cd_max:01/01/2026',
      'sbd:2',
      'when:now',
    ]) {
      expect(() => parseTbs(bad, now), bad).toThrow(/^Invalid tbs/);
    }
  });
});

describe('the request as a SearchQuery', () => {
  const now = new Date('2026-11-24T12:00:00.000Z');
  it('applies defaults and both forms of sources and categories', () => {
    const req = searchRequestSchema.parse({ query: 'x', sources: ['web', { type: 'news' }], categories: ['github', { type: 'pdf' }] });
    const q = searchQueryOf(req, now);
    expect(q).toMatchObject({ sources: ['web', 'news'], categories: ['github', 'pdf'], limit: 10, country: 'US', language: 'en' });
    expect(searchQueryOf(searchRequestSchema.parse({ query: 'x', location: 'Berlin,Germany' }), now).country).toBeUndefined();
    expect(searchQueryOf(searchRequestSchema.parse({ query: 'x', includeDomains: ['Docs.Example.com'] }), now).domains.include).toEqual(['docs.example.com']);
  });
  it('refuses both domain lists, bad sources, hosts with paths, limits out of range', () => {
    const issues = (body: unknown) => searchRequestSchema.safeParse(body).error?.issues.map((i) => i.message) ?? [];
    expect(issues({ query: 'x', includeDomains: ['a.com'], excludeDomains: ['b.com'] })).toContain(
      'includeDomains and excludeDomains cannot both be specified',
    );
    expect(issues({ query: 'x', sources: ['video'] }).join()).toMatch(/sources must be among web, images, news/);
    expect(issues({ query: 'x', includeDomains: ['https://a.com/x'] }).join()).toMatch(/must be a hostname/);
    expect(issues({ query: 'x', limit: 101 })).toContain('limit must be at most 100');
    expect(issues({ query: 'x'.repeat(501) })).toContain('query must be at most 500 characters');
    expect(issues({ query: 'x', sources: ['web', 'web'] })).toContain('each source may be named once');
    expect(issues({ query: 'x', unknown: 1 }).length).toBeGreaterThan(0);
  });
  it('defaults scrapeOptions formats to none', () => {
    expect(searchRequestSchema.parse({ query: 'x', scrapeOptions: {} }).scrapeOptions?.formats).toEqual([]);
  });
});
