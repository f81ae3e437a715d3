export interface PageMetaTags {
  title?: string;
  description?: string;
  language?: string;
  keywords?: string;
  ogLocaleAlternate: string[];
  [key: string]: string | string[] | undefined;
}

const LOCALE_ALTERNATE = 'og:locale:alternate';

// Meta names that feed, or would overwrite, the named fields above; emitting them again under
// their raw name would duplicate (or, for title/language, contradict) those fields.
const NAMED_FIELD_SOURCES = new Set(['title', 'description', 'language', 'keywords', 'oglocalealternate', LOCALE_ALTERNATE]);

/** Page-level metadata: the named fields plus every other meta tag under its raw name. */
export function extractMetadata(document: Document): PageMetaTags {
  const metaTags = collectMetaTags(document);
  const joined = (name: string): string | undefined => {
    const values = valuesOf(metaTags, name);
    return values.length > 0 ? values.join(', ') : undefined;
  };

  const namedFields = {
    title: documentTitle(document) ?? joined('og:title') ?? joined('title'),
    description: joined('description') ?? joined('og:description'),
    language: nonEmpty(document.documentElement.getAttribute('lang')) ?? joined('language'),
    keywords: joined('keywords'),
  };
  const metadata: PageMetaTags = {
    ...Object.fromEntries(Object.entries(namedFields).filter(([, value]) => value !== undefined)),
    ogLocaleAlternate: valuesOf(metaTags, LOCALE_ALTERNATE),
  };
  for (const [name, values] of metaTags) {
    if (!NAMED_FIELD_SOURCES.has(name.toLowerCase())) metadata[name] = values.join(', ');
  }
  return metadata;
}

/** Meta tag values grouped by name/property/itemprop, in document order. */
function collectMetaTags(document: Document): Map<string, string[]> {
  const metaTags = new Map<string, string[]>();
  for (const meta of document.querySelectorAll('meta')) {
    if (meta.hasAttribute('charset') || meta.hasAttribute('http-equiv')) continue;
    const name = nonEmpty(meta.getAttribute('name') ?? meta.getAttribute('property') ?? meta.getAttribute('itemprop'));
    const content = nonEmpty(meta.getAttribute('content'));
    if (name === undefined || content === undefined) continue;
    const values = metaTags.get(name);
    if (values) values.push(content);
    else metaTags.set(name, [content]);
  }
  return metaTags;
}

// Meta names are matched case-insensitively: pages write both "Description" and "description".
function valuesOf(metaTags: Map<string, string[]>, name: string): string[] {
  return [...metaTags].filter(([key]) => key.toLowerCase() === name).flatMap(([, values]) => values);
}

// An <svg> may carry its own <title>, which is not the page title.
function documentTitle(document: Document): string | undefined {
  const title = [...document.querySelectorAll('title')].find((element) => element.closest('svg') === null);
  return nonEmpty(title?.textContent);
}

function nonEmpty(value: string | null | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}
