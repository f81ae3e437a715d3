// Every value the SDKs' search types allow: accepted by the schema, then implemented,
// answered with a warning, or refused as a cloud service (docs/api/search.md).
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/platform/domain-error.ts';
import { cloudValues } from '../../../src/features/search/cloud-values.ts';
import { highlightPassages } from '../../../src/features/search/providers/local-highlights.ts';
import { searchQueryOf } from '../../../src/features/search/query/search-query-of.ts';
import { searchRequestSchema } from '../../../src/features/search/search-request.ts';
import { rejectMessage } from '../api/helpers.ts';

const parse = (body: Record<string, unknown>) => searchRequestSchema.parse({ query: 'x', ...body });
const now = new Date('2026-11-24T12:00:00.000Z');

/** The service a refused request names, or the warning of one that is answered. */
function decision(body: Record<string, unknown>): { refused: string } | { warning: string | undefined } {
  try {
    return { warning: cloudValues(parse(body)).toolsWarning };
  } catch (err) {
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).kind).toBe('not-offered');
    return { refused: ((err as DomainError).details as { service: string }).service };
  }
}

describe('the values of the SDKs’ search types', () => {
  it('accepts every one (JS SearchRequest, Python SearchRequest)', () => {
    const all = parse({
      sources: ['web', 'news', 'images', 'alexandria'],
      categories: ['github', 'research', 'pdf'],
      domainTools: true,
      toolDetail: 'full',
      highlights: true,
      enterprise: ['default'],
      threatProtection: {
        mode: 'manual-only',
        riskScoreThreshold: 70,
        blacklist: ['*.Bad.example'],
        whitelist: ['good.bad.example'],
        blockedTlds: ['ZIP'],
        failurePolicy: 'closed',
      },
      country: 'de',
      location: 'Berlin',
      ignoreInvalidURLs: true,
      integration: 'x',
      origin: 'js-sdk@4.42.0',
    });
    // Kept as sent; the rules compare them in lower case (src/page/threat-policy.ts).
    expect(all.threatProtection).toEqual({
      mode: 'manual-only',
      riskScoreThreshold: 70,
      blacklist: ['*.Bad.example'],
      whitelist: ['good.bad.example'],
      blockedTlds: ['ZIP'],
      failurePolicy: 'closed',
    });
    expect(parse({ sources: [{ type: 'alexandria' }, { type: 'web' }] }).sources).toEqual([{ type: 'alexandria' }, { type: 'web' }]);
    for (const mode of ['off', 'normal', 'zscaler']) expect(parse({ threatProtection: { mode } }).threatProtection).toEqual({ mode });
    for (const toolDetail of ['compact', 'summary']) expect(parse({ toolDetail }).toolDetail).toBe(toolDetail);
    for (const category of ['developer', 'gov', 'repo', 'code', 'docs', 'devdex', 'repo_search', 'developer_index', { type: 'developer' }, { type: 'gov' }])
      expect(parse({ categories: [category] }).categories).toEqual([category]);
  });

  it('refuses malformed values with a 400 naming the field', () => {
    expect(rejectMessage(searchRequestSchema, { query: 'x', threatProtection: { mode: 'strict' } }).error).toBe(
      'threatProtection.mode: mode must be one of off, manual-only, normal, zscaler',
    );
    expect(rejectMessage(searchRequestSchema, { query: 'x', threatProtection: { riskScoreThreshold: 101 } }).error).toMatch(
      /^threatProtection\.riskScoreThreshold: /,
    );
    expect(rejectMessage(searchRequestSchema, { query: 'x', threatProtection: { blockedTlds: ['zip/'] } }).error).toBe(
      'threatProtection.blockedTlds.0: must be a TLD without the leading dot, e.g. zip',
    );
    expect(rejectMessage(searchRequestSchema, { query: 'x', threatProtection: { scan: true } }).error).toMatch(/^Unrecognized key/);
    expect(rejectMessage(searchRequestSchema, { query: 'x', toolDetail: 'verbose' }).error).toBe(
      'toolDetail: toolDetail must be one of compact, summary, full',
    );
    expect(rejectMessage(searchRequestSchema, { query: 'x', domainTools: 'yes' }).error).toBe('domainTools: domainTools must be true or false');
    expect(rejectMessage(searchRequestSchema, { query: 'x', highlights: 1 }).error).toBe('highlights: highlights must be true or false');
    expect(rejectMessage(searchRequestSchema, { query: 'x', sources: [{ type: 'alexandria', tbs: 'qdr:d' }] }).error).toMatch(/^Unrecognized key/);
    expect(rejectMessage(searchRequestSchema, { query: 'x', sources: ['alexandria', { type: 'alexandria' }] }).error).toBe(
      'sources: each source may be named once',
    );
  });

  it('developer (with its aliases) and gov combine with no other category', () => {
    expect(rejectMessage(searchRequestSchema, { query: 'x', categories: ['developer', 'github'] }).error).toBe(
      'categories: the developer category cannot be combined with other categories',
    );
    expect(rejectMessage(searchRequestSchema, { query: 'x', categories: ['repo', { type: 'pdf' }] }).error).toBe(
      'categories: the developer category cannot be combined with other categories',
    );
    expect(rejectMessage(searchRequestSchema, { query: 'x', categories: ['gov', 'research'] }).error).toBe(
      'categories: the gov category cannot be combined with other categories',
    );
    // Aliases of one category are that category once.
    expect(parse({ categories: ['developer', 'repo', 'code'] }).categories).toHaveLength(3);
  });
});

describe('what each value does here', () => {
  it('refuses the categories and the source that only a cloud service answers', () => {
    expect(decision({ categories: ['developer'] })).toEqual({ refused: 'developer-index' });
    expect(decision({ categories: ['devdex', 'code'] })).toEqual({ refused: 'developer-index' });
    expect(decision({ categories: [{ type: 'gov' }] })).toEqual({ refused: 'government-index' });
    expect(decision({ sources: ['alexandria'] })).toEqual({ refused: 'alexandria' });
    expect(decision({ sources: [{ type: 'alexandria' }] })).toEqual({ refused: 'alexandria' });
  });

  it('answers the other sources with a warning naming the tool fields', () => {
    expect(decision({ sources: ['web', 'alexandria'] })).toEqual({
      warning:
        'sources: alexandria: tools come from the Alexandria exchange, a Firecrawl cloud service this self-hosted service does not offer; data.tools is empty',
    });
    expect(decision({ domainTools: true, sources: ['news', { type: 'alexandria' }] })).toEqual({
      warning:
        'sources: alexandria and domainTools: tools come from the Alexandria exchange, a Firecrawl cloud service this self-hosted service does not offer; data.tools is empty',
    });
    expect(decision({ domainTools: true })).toEqual({ warning: expect.stringMatching(/^domainTools: /) });
  });

  it('needs nothing of the rest', () => {
    for (const body of [
      {},
      { domainTools: false },
      { toolDetail: 'full' },
      { highlights: true },
      { enterprise: ['default'] },
      { categories: ['github', 'research', 'pdf'] },
      { threatProtection: { mode: 'off' } },
      { threatProtection: { mode: 'manual-only', blacklist: ['a.com'], riskScoreThreshold: 10, failurePolicy: 'open' } },
      // Scans are decided by failurePolicy, as for every job (src/page/threat-policy.ts).
      { threatProtection: { mode: 'normal' } },
      { threatProtection: { mode: 'zscaler', blacklist: ['a.com'] } },
    ])
      expect(decision(body), JSON.stringify(body)).toEqual({ warning: undefined });
  });

  it('gives providers only the sources and categories searched here, and the highlights flag', () => {
    const q = searchQueryOf(parse({ sources: ['alexandria', { type: 'news' }], categories: ['pdf'], highlights: true }), now);
    expect(q).toMatchObject({ sources: ['news'], categories: ['pdf'], highlights: true });
    expect(searchQueryOf(parse({}), now).highlights).toBe(false);
  });
});

describe('highlight passages', () => {
  it('are ts_headline’s passages as text, without markdown link targets; none without a matched word', () => {
    expect(
      highlightPassages(
        'Futures are polled by an \uE000executor\uE001; see [the  runtime](https://tokio.rs/x) … ![Ferris](/img/crab.png) and the \uE000executor\uE001 loop',
      ),
    ).toBe('Futures are polled by an executor; see the runtime … Ferris and the executor loop');
    expect(highlightPassages('The first words of a page that never says the word')).toBeUndefined();
    expect(highlightPassages('\uE000\uE001  ')).toBeUndefined();
  });
});
