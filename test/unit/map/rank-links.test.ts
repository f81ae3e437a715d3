import { describe, expect, it } from 'vitest';
import { rankLinks, scoreLink } from '../../../src/features/map/rank-links.ts';

describe('rankLinks', () => {
  const links = [
    { url: 'https://a.example/' },
    { url: 'https://a.example/blog/hello' },
    { url: 'https://a.example/pricing' },
    { url: 'https://a.example/docs', title: 'Pricing plans and docs' },
    { url: 'https://a.example/enterprise-pricing-plans' },
  ];

  it('keeps the order without a search term', () => {
    expect(rankLinks(links, undefined)).toEqual(links);
    expect(rankLinks(links, '  ')).toEqual(links);
  });

  it('puts links holding more of the words first, the whole phrase counting most, others after in their order', () => {
    const ranked = rankLinks(links, 'pricing plans').map((l) => l.url);
    expect(ranked).toEqual([
      'https://a.example/docs',
      'https://a.example/enterprise-pricing-plans',
      'https://a.example/pricing',
      'https://a.example/',
      'https://a.example/blog/hello',
    ]);
  });

  it('matches case-insensitively, in decoded URLs, and survives a malformed escape', () => {
    expect(scoreLink({ url: 'https://a.example/%C3%9Cber-uns' }, 'über')).toBe(2);
    expect(scoreLink({ url: 'https://a.example/%E0%A4%A' }, 'a')).toBeGreaterThan(0);
    expect(scoreLink({ url: 'https://a.example/', title: 'HELLO' }, 'hello')).toBe(2);
    expect(scoreLink({ url: 'https://a.example/' }, '!!!')).toBe(0);
  });
});
