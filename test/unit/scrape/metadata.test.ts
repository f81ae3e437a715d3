import { describe, expect, it } from 'vitest';
import { extractMetadata } from '../../../src/page/metadata.ts';
import { parseHtmlDocument } from '../../../src/page/parse-html.ts';

const metadataOf = (html: string) => extractMetadata(parseHtmlDocument(html));

describe('extractMetadata', () => {
  it('reads the named fields and every other meta tag under its raw name', () => {
    const metadata = metadataOf(`<!DOCTYPE html><html lang="en-GB"><head>
      <meta charset="utf-8">
      <meta http-equiv="refresh" content="30">
      <title>  Example page \n</title>
      <meta name="description" content="A page about examples">
      <meta name="keywords" content="one, two">
      <meta property="og:title" content="OG title">
      <meta property="og:locale:alternate" content="fr_FR">
      <meta property="og:locale:alternate" content="de_DE">
      <meta name="twitter:card" content="summary">
      <meta itemprop="author" content="Ada">
      <meta name="robots" content="noindex">
    </head><body></body></html>`);

    expect(metadata).toEqual({
      title: 'Example page',
      description: 'A page about examples',
      language: 'en-GB',
      keywords: 'one, two',
      ogLocaleAlternate: ['fr_FR', 'de_DE'],
      'og:title': 'OG title',
      'twitter:card': 'summary',
      author: 'Ada',
      robots: 'noindex',
    });
  });

  it('joins the values of a repeated meta name', () => {
    const metadata = metadataOf(`<head>
      <meta name="robots" content="noindex"><meta name="robots" content="nofollow">
      <meta name="keywords" content="a"><meta name="Keywords" content="b">
    </head>`);
    expect(metadata.robots).toBe('noindex, nofollow');
    expect(metadata.keywords).toBe('a, b');
    expect(metadata).not.toHaveProperty('Keywords');
  });

  it('falls back to og:title and og:description', () => {
    const metadata = metadataOf(`<head><title> </title>
      <meta property="og:title" content="From OG"><meta property="og:description" content="OG description">
    </head>`);
    expect(metadata.title).toBe('From OG');
    expect(metadata.description).toBe('OG description');
    expect(metadata['og:description']).toBe('OG description');
  });

  it('ignores an <svg> title and leaves absent fields out', () => {
    const metadata = metadataOf('<body><svg><title>Icon</title></svg><p>text</p></body>');
    expect(metadata).toEqual({ ogLocaleAlternate: [] });
  });

  it('never lets a raw meta tag overwrite a named field', () => {
    const metadata = metadataOf(`<html lang="de"><head><title>Real</title>
      <meta name="title" content="Meta title"><meta name="language" content="fr">
      <meta name="ogLocaleAlternate" content="x">
    </head></html>`);
    expect(metadata.title).toBe('Real');
    expect(metadata.language).toBe('de');
    expect(metadata.ogLocaleAlternate).toEqual([]);
  });
});
