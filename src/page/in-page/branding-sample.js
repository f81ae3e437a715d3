// The branding sample (src/page/branding/branding-sample.ts): computed styles of the page's
// prominent elements, its logo candidates and icons. Values are cut or left out here to the
// limits the worker's schema checks, so that one odd value never costs a page its profile.
function readBrandingSample({ maxElements, maxLogoChars, maxUrlChars, maxCssChars }) {
  const MAX_AREA = 1e6;
  const clip = (value) => (value ?? '').slice(0, maxCssChars);
  const elements = [];
  const seen = new Set();
  const visible = (el, style) => {
    const rect = el.getBoundingClientRect();
    return rect.width > 0 && rect.height > 0 && style.visibility !== 'hidden' && style.display !== 'none' ? rect : undefined;
  };
  const inHeader = (el) => !!el.closest('header, nav, [role=banner], #header, .header');
  const add = (el, kind) => {
    if (elements.length >= maxElements || seen.has(el)) return;
    seen.add(el);
    const style = getComputedStyle(el);
    const rect = visible(el, style);
    if (!rect) return;
    const isText = kind !== 'header' && kind !== 'button' && kind !== 'input';
    const weight = isText ? Math.min((el.textContent ?? '').trim().length, 5000) : Math.min(rect.width * rect.height, MAX_AREA);
    if (weight === 0) return;
    elements.push({
      kind,
      color: clip(style.color),
      background: clip(style.backgroundColor),
      borderColor: clip(style.borderTopColor),
      borderRadius: clip(style.borderTopLeftRadius),
      fontFamily: clip(style.fontFamily),
      fontSize: clip(style.fontSize),
      fontWeight: clip(style.fontWeight),
      lineHeight: clip(style.lineHeight),
      weight,
    });
  };
  const take = (selector, kind, max) => {
    let n = 0;
    for (const el of Array.from(document.querySelectorAll(selector))) {
      if (n >= max || elements.length >= maxElements) break;
      const before = elements.length;
      add(el, kind);
      if (elements.length > before) n++;
    }
  };
  take('h1', 'h1', 10);
  take('h2', 'h2', 20);
  take('h3', 'h3', 20);
  take('header, [role=banner], nav', 'header', 5);
  take('button, [role=button], input[type=submit], input[type=button], a[class*=btn], a[class*=button]', 'button', 40);
  take('input[type=text], input[type=email], input[type=search], textarea', 'input', 10);
  take('a[href]', 'link', 100);
  take('pre, code', 'code', 10);
  take('p, li, td, dd, blockquote', 'text', 200);

  const logos = [];
  const home = new URL('/', location.href).href;
  const candidates = Array.from(
    document.querySelectorAll(
      'header img, header svg, nav img, nav svg, a img, a svg, img[class*=logo i], img[id*=logo i], img[alt*=logo i], img[src*=logo i], svg[class*=logo i]',
    ),
  ).slice(0, 60);
  for (const el of candidates) {
    if (logos.length >= 20) break;
    const style = getComputedStyle(el);
    const rect = visible(el, style);
    if (!rect) continue;
    const link = el.closest('a');
    const label = `${el.id} ${el.getAttribute('class') ?? ''} ${el.getAttribute('alt') ?? ''} ${el.getAttribute('src') ?? ''} ${link?.getAttribute('class') ?? ''}`;
    const named = /logo|brand/i.test(label) || (!!link && link.href === home);
    let src = '';
    if (el instanceof HTMLImageElement) src = el.currentSrc || el.src;
    else {
      const markup = new XMLSerializer().serializeToString(el);
      // Encoding at most triples it: markup that cannot fit is not encoded at all.
      if (markup.length <= maxLogoChars) src = `data:image/svg+xml,${encodeURIComponent(markup)}`;
    }
    if (src && src.length <= maxLogoChars) logos.push({ src, inHeader: inHeader(el), named, area: Math.min(rect.width * rect.height, MAX_AREA) });
  }

  const icons = Array.from(document.querySelectorAll('link[rel][href]'))
    .filter((l) => /(^|\s)(icon|apple-touch-icon)(\s|$)/i.test(l.getAttribute('rel') ?? '') && l.href.length <= maxUrlChars)
    .slice(0, 20)
    .map((l) => ({ href: l.href, rel: clip(l.getAttribute('rel')), sizes: clip(l.getAttribute('sizes')) }));
  const og = document.querySelector('meta[property="og:image"], meta[name="twitter:image"]');
  const ogContent = og?.getAttribute('content');
  const ogImage = ogContent ? (URL.parse(ogContent, document.baseURI)?.href ?? '') : '';
  const rootStyle = getComputedStyle(document.documentElement);
  const bodyStyle = document.body ? getComputedStyle(document.body) : rootStyle;
  return {
    root: {
      htmlBackground: clip(rootStyle.backgroundColor),
      bodyBackground: clip(bodyStyle.backgroundColor),
      color: clip(bodyStyle.color),
      fontFamily: clip(bodyStyle.fontFamily),
      fontSize: clip(bodyStyle.fontSize),
    },
    elements,
    logos,
    icons,
    ogImage: ogImage.length <= maxUrlChars ? ogImage : '',
  };
}
