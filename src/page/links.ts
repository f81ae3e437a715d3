const WEB_PROTOCOLS = new Set(['http:', 'https:']);

/** Resolves an href against a base URL; undefined when either cannot be parsed. */
export function resolveHref(href: string, base: string): string | undefined {
  return URL.parse(href, base)?.href;
}

/** The URL relative references resolve against: the first <base href>, else the page URL. */
export function documentBaseUrl(document: Document, pageUrl: string): string {
  const baseHref = document.querySelector('base[href]')?.getAttribute('href');
  return (baseHref && resolveHref(baseHref, pageUrl)) || pageUrl;
}

/** Every distinct http(s) link target of the page, fragment removed, in first-seen order. */
export function extractLinks(document: Document, baseUrl: string): string[] {
  const base = documentBaseUrl(document, baseUrl);
  const links = new Set<string>();
  for (const anchor of document.querySelectorAll('a[href]')) {
    const url = URL.parse(anchor.getAttribute('href') ?? '', base);
    if (!url || !WEB_PROTOCOLS.has(url.protocol)) continue;
    // Fragments address parts of one page; keeping them would make the crawler fetch it again.
    url.hash = '';
    links.add(url.href);
  }
  return [...links];
}
