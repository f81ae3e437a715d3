// Generated requests of every route of the gateway: bodies, path parameters, query
// strings, headers, content types and encodings, anonymous or keyed. One source for
// the three layers that use them: the in-process property tests of the unit project
// (test/support/route-parsing-properties.ts), the seeded HTTP pass of the
// integration project (test/integration/route-answers.test.ts) and the full HTTP
// fuzzer of `npm run fuzz` (test/fuzz/fuzz-routes.test.ts).
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';

/** What the generators point at: a key, and rows of its team the id routes find. */
export interface RouteFixtures {
  apiKey: string;
  /** Crawls: completed, scraping, failed. */
  crawlIds: string[];
  /** Batch scrapes and single scrapes: completed, scraping. */
  batchIds: string[];
  scrapeIds: string[];
  /** Browser sessions: destroyed, error, active. */
  sessionIds: string[];
}

export interface Shot {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** Sent in two writes without a Content-Length (chunked). */
  chunked: boolean;
}

export function describeShot(s: Shot): string {
  const body = s.body ? ` body(${s.body.length} B)=${JSON.stringify(s.body.subarray(0, 300).toString('latin1'))}` : '';
  return `${s.method} ${s.path.slice(0, 300)} ${JSON.stringify(s.headers).slice(0, 500)}${s.chunked ? ' chunked' : ''}${body}`;
}

function withDescription(s: Shot): Shot & fc.WithToStringMethod {
  return { ...s, [fc.toStringMethod]: () => describeShot(s) };
}

const json = fc.jsonValue({ maxDepth: 4 });
/** Mostly a plausible value, sometimes any JSON at all. */
const maybe = <T>(valid: fc.Arbitrary<T>) => fc.oneof({ weight: 4, arbitrary: valid }, { weight: 1, arbitrary: json });
const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'];
const key = fc.oneof({ weight: 4, arbitrary: fc.string({ maxLength: 20 }) }, fc.constantFrom(...PROTO_KEYS), fc.string({ unit: 'binary', maxLength: 10 }));
const text = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 }), fc.constantFrom('', ' ', '\r\n', '\u0000', 'x'.repeat(9000)));

const url = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      'http://example.com',
      'https://example.com/a?b=c#d',
      'example.com/x',
      'http://127.0.0.1:9/',
      'http://[::1]/',
      'http://xn--bcher-kva.example/',
    ),
  },
  fc.constantFrom(
    'ftp://example.com',
    'javascript:alert(1)',
    'http://a',
    'http://',
    '',
    '   ',
    'http://exa mple.com',
    `http://${'a'.repeat(70)}.com`,
    'http://0x7f.1/',
  ),
  fc.webUrl(),
  fc.string({ maxLength: 60 }),
);

const headerName = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('Cookie', 'Authorization', 'X-Api-Key', 'User-Agent', 'Accept-Language') },
  fc.constantFrom(
    'Host',
    'Content-Length',
    'Transfer-Encoding',
    'Connection',
    'Proxy-Authorization',
    'X-Service-Signature',
    'cookie',
    'Bad Name',
    'X:Y',
    '',
    ...PROTO_KEYS,
  ),
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 10 }),
);
const headerMap = fc.dictionary(headerName, maybe(text), { maxKeys: 6 });

const intish = fc.oneof(fc.integer({ min: -5, max: 100 }), fc.constantFrom(0, -1, 1.5, 2 ** 31, 2 ** 53, Number.MAX_SAFE_INTEGER, 1e300, -0));
const action = fc.record(
  {
    type: fc.constantFrom('wait', 'click', 'write', 'press', 'scroll', 'screenshot', 'scrape', 'executeJavascript', 'pdf', 'teleport'),
    milliseconds: maybe(intish),
    selector: maybe(text),
    text: maybe(text),
    key: maybe(text),
    script: maybe(text),
    direction: maybe(fc.constantFrom('up', 'down', 'sideways')),
  },
  { requiredKeys: ['type'] },
);
const scrapeOptions = fc.record(
  {
    formats: maybe(
      fc.array(
        fc.oneof(
          fc.constantFrom(
            'markdown',
            'html',
            'rawHtml',
            'links',
            'images',
            'branding',
            'attributes',
            'screenshot',
            'screenshot@fullPage',
            'json',
            'product',
            'menu',
            'query',
          ),
          fc.record({ type: fc.constantFrom('screenshot', 'markdown', 'x'), fullPage: maybe(fc.boolean()) }),
          fc.record({ type: fc.constant('query'), prompt: maybe(text), mode: maybe(fc.constantFrom('freeform', 'directQuote', 'x', null)) }),
          fc.record({
            type: fc.constant('attributes'),
            selectors: maybe(
              fc.array(fc.record({ selector: maybe(fc.oneof(fc.constantFrom('a', '.item[data-id]', 'div[[', ''), text)), attribute: maybe(text) }), {
                maxLength: 3,
              }),
            ),
          }),
        ),
        { maxLength: 4 },
      ),
    ),
    headers: maybe(headerMap),
    includeTags: maybe(fc.array(fc.oneof(fc.constantFrom('article', '#main', 'div[[', ''), text), { maxLength: 3 })),
    excludeTags: maybe(fc.array(text, { maxLength: 3 })),
    waitFor: maybe(intish),
    timeout: maybe(fc.oneof(intish, fc.constantFrom(1000, 30000, 300_000))),
    maxAge: maybe(intish),
    actions: maybe(fc.array(action, { maxLength: 4 })),
    location: maybe(
      fc.record({ country: maybe(fc.constantFrom('US', 'de', 'USA', '')), languages: maybe(fc.array(text, { maxLength: 3 })) }, { requiredKeys: [] }),
    ),
    parsers: maybe(fc.array(fc.oneof(fc.constantFrom('pdf', 'docx'), fc.record({ type: fc.constantFrom('pdf'), maxPages: maybe(intish) })), { maxLength: 2 })),
    mobile: maybe(fc.boolean()),
    proxy: maybe(fc.constantFrom('basic', 'stealth', 'auto', 'residential')),
    profile: maybe(fc.record({ name: maybe(text), saveChanges: maybe(fc.boolean()) }, { requiredKeys: [] })),
  },
  { requiredKeys: [] },
);
/** Nested `depth` levels deep, as text: built without recursion so any depth can be sent. */
const deepJson = fc
  .tuple(fc.integer({ min: 1, max: 200_000 }), fc.boolean())
  .map(([depth, objects]) => (objects ? '{"a":'.repeat(depth) + '1' + '}'.repeat(depth) : '['.repeat(depth) + ']'.repeat(depth)));
const metadata = fc.oneof(fc.dictionary(key, json, { maxKeys: 5 }), json);
const webhook = fc.oneof(
  url,
  fc.record(
    {
      url,
      headers: maybe(headerMap),
      metadata: maybe(metadata),
      events: maybe(fc.array(fc.constantFrom('started', 'page', 'completed', 'failed', 'deleted'), { maxLength: 5 })),
    },
    { requiredKeys: [] },
  ),
);
const crawlRequest = fc.record(
  {
    url,
    limit: maybe(intish),
    includePaths: maybe(fc.array(fc.oneof(fc.constantFrom('^/blog/', '(unclosed', '[z-a]', '(a+)+$', '\\'), text), { maxLength: 3 })),
    excludePaths: maybe(fc.array(text, { maxLength: 3 })),
    maxDiscoveryDepth: maybe(intish),
    sitemap: maybe(fc.constantFrom('skip', 'include', 'only', 'sometimes')),
    crawlEntireDomain: maybe(fc.boolean()),
    allowExternalLinks: maybe(fc.boolean()),
    ignoreRobotsTxt: maybe(fc.boolean()),
    robotsUserAgent: maybe(text),
    delay: maybe(fc.oneof(intish, fc.double())),
    maxConcurrency: maybe(intish),
    prompt: maybe(text),
    zeroDataRetention: maybe(fc.boolean()),
    webhook: maybe(webhook),
    scrapeOptions: maybe(scrapeOptions),
    origin: maybe(text),
    integration: maybe(fc.option(text)),
    maxDepth: json,
  },
  { requiredKeys: [] },
);

const alexandriaCall = fc.record(
  {
    provider: maybe(fc.constantFrom('firecrawl', ' ', 'x')),
    capability: maybe(fc.constantFrom('find-tools', '')),
    options: maybe(fc.dictionary(key, json, { maxKeys: 3 })),
  },
  { requiredKeys: [] },
);
/** Exchange calls in place of a URL (the SDKs' findTools): validated, then refused 501 as a cloud service. */
const alexandriaRequest = fc.record(
  {
    alexandria: maybe(fc.oneof(alexandriaCall, fc.array(alexandriaCall, { maxLength: 11 }))),
    timeout: maybe(intish),
    integration: maybe(fc.oneof(text, fc.constant(null))),
    origin: maybe(text),
  },
  { requiredKeys: ['alexandria'] },
);
const scrapeRequest = fc.oneof(
  {
    weight: 9,
    arbitrary: fc
      .tuple(
        scrapeOptions,
        fc.record({ url, zeroDataRetention: maybe(fc.boolean()), fastMode: maybe(fc.boolean()), origin: maybe(text) }, { requiredKeys: [] }),
      )
      .map(([o, r]) => ({ ...o, ...r })),
  },
  { weight: 1, arbitrary: alexandriaRequest },
);
const mapRequest = fc.record(
  {
    url,
    search: maybe(text),
    sitemap: maybe(fc.constantFrom('skip', 'include', 'only', 'sometimes')),
    includeSubdomains: maybe(fc.boolean()),
    ignoreQueryParameters: maybe(fc.boolean()),
    limit: maybe(fc.oneof(intish, fc.constantFrom(5000, 100_000, 100_001))),
    timeout: maybe(fc.oneof(intish, fc.constantFrom(1000, 300_000, 300_001))),
    location: maybe(fc.record({ country: maybe(text), languages: maybe(fc.array(text, { maxLength: 3 })) }, { requiredKeys: [] })),
    origin: maybe(text),
  },
  { requiredKeys: [] },
);
/** Batch requests; `appendTo` is the id a request may append to (by asking for `appendToId: "batch"`). */
function batchRequestOf(appendTo: () => string) {
  const anyBatchRequest = fc
    .tuple(
      scrapeOptions,
      fc.record(
        {
          urls: maybe(fc.array(fc.oneof({ weight: 6, arbitrary: fc.constantFrom('http://127.0.0.1:9/a', 'http://127.0.0.1:9/b?c=d') }, url), { maxLength: 6 })),
          webhook: maybe(webhook),
          appendToId: maybe(fc.oneof(fc.uuid(), fc.constant('batch'), text)),
          ignoreInvalidURLs: maybe(fc.boolean()),
          maxConcurrency: maybe(intish),
          zeroDataRetention: maybe(fc.boolean()),
        },
        { requiredKeys: ['urls'] },
      ),
    )
    .map(([o, r]) => ({ ...o, ...r, ...(r.appendToId === 'batch' && { appendToId: appendTo() }) }));
  /** Every field of a batch must hold for it to pass validation: some requests carry only valid ones. */
  return fc.oneof(
    { weight: 4, arbitrary: anyBatchRequest },
    {
      weight: 1,
      arbitrary: fc.record(
        { urls: fc.array(fc.constantFrom('http://127.0.0.1:9/a', 'https://127.0.0.1:9/b'), { minLength: 1, maxLength: 3 }), mobile: fc.boolean() },
        { requiredKeys: ['urls'] },
      ),
    },
  );
}

/** Body texts no JSON encoder would produce. */
const rawBodies: fc.Arbitrary<Buffer>[] = [
  // Invalid UTF-8 inside and outside strings.
  fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.concat([Buffer.from('{"url":"http://example.com/'), Buffer.from(bytes), Buffer.from('"}')])),
  fc.uint8Array({ maxLength: 512 }).map((bytes) => Buffer.from(bytes)),
  // Nested far deeper than any schema allows, alone or where the schema takes any JSON.
  deepJson.map((deep) => Buffer.from(deep)),
  deepJson.map((deep) => Buffer.from(`{"url":"http://example.com","webhook":{"url":"http://example.com/h","metadata":{"m":${deep}}}}`)),
  // Prototype pollution attempts, as JSON text (JSON.parse makes own __proto__ keys).
  fc
    .constantFrom(
      '{"url":"http://example.com","__proto__":{"polluted":true,"limit":0}}',
      '{"url":"http://example.com","constructor":{"prototype":{"polluted":true}}}',
      '{"url":"http://example.com","scrapeOptions":{"__proto__":{"polluted":true},"headers":{"__proto__":"x"}}}',
      '{"url":"http://example.com","webhook":{"url":"http://example.com/h","metadata":{"__proto__":{"polluted":true}},"headers":{"constructor":"x"}}}',
      '{"__proto__":[],"url":{"__proto__":null}}',
    )
    .map((t) => Buffer.from(t)),
  // Long strings: within the body limit, and past it (413).
  fc.constantFrom(10_000, 1_000_000, 11 * 1024 * 1024).map((n) => Buffer.from(`{"url":"http://example.com","prompt":"${'x'.repeat(n)}"}`)),
  // Truncated and malformed JSON.
  fc.constantFrom('', '{', '{"url":', 'null', '0', '"x"', '[]', '{"url":"http://example.com"}}', '\uFEFF{}', '{"a":1,"a":2}').map((t) => Buffer.from(t)),
];

/** Mostly well-formed requests of the route (`request`), sometimes any JSON or raw bytes. */
const bodyOf = (request: fc.Arbitrary<unknown>) =>
  fc.oneof(
    { weight: 6, arbitrary: request.map((b) => Buffer.from(JSON.stringify(b))) },
    { weight: 2, arbitrary: json.map((b) => Buffer.from(JSON.stringify(b))) },
    ...rawBodies.map((arbitrary) => ({ weight: 1, arbitrary })),
  );

const contentType = fc.oneof(
  { weight: 6, arbitrary: fc.constant('application/json') },
  fc.constantFrom(
    'application/json; charset=utf-8',
    'application/json; charset=latin1',
    'application/json; charset=utf-16',
    'application/json; charset=nope',
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/*',
    'application/vnd.api+json',
    ';;;',
  ),
  fc.string({ unit: 'binary-ascii', maxLength: 30 }).map((t) => t.replace(/[^\x20-\x7e]/g, '')),
);

/** Compressed for real, or claimed but not, or an encoding nobody knows. */
const encodedBody = (request: fc.Arbitrary<unknown>) =>
  fc
    .tuple(
      bodyOf(request),
      fc.constantFrom<string | undefined>(undefined, undefined, undefined, undefined, 'gzip', 'gzip-claimed', 'deflate', 'br', 'identity', 'x-unknown'),
    )
    .map(([body, encoding]) => {
      if (encoding === 'gzip') return { body: gzipSync(body), encoding };
      if (encoding === 'gzip-claimed') return { body, encoding: 'gzip' };
      return { body, encoding };
    });

/** A multipart part of POST /v2/parse: mostly the file and options parts, with contents of every supported type, junk and hostile names. */
const uploadPart = fc.record({
  name: fc.oneof({ weight: 8, arbitrary: fc.constantFrom('file', 'options') }, fc.constantFrom('other', '', 'constructor', 'file"x')),
  filename: fc.option(fc.constantFrom('a.pdf', 'a.html', 'a.docx', 'a.txt', 'a.md', 'a.png', 'a.constructor', '', '../../etc/passwd', 'ü.txt'), { freq: 4 }),
  type: fc.option(fc.constantFrom('application/pdf', 'text/html', 'text/plain', 'text/markdown', 'image/png', 'application/octet-stream', 'x/'), { freq: 2 }),
  content: fc.oneof(
    {
      weight: 3,
      arbitrary: fc.constantFrom('hello', '# Title\n\ntext', '<!doctype html><title>t</title><p>x</p>', '%PDF-1.7 not really', 'PK\u0003\u0004 cut short', ''),
    },
    {
      weight: 3,
      arbitrary: fc
        .oneof(
          fc.constant({}),
          fc.record({ formats: fc.array(fc.constantFrom('markdown', 'html', 'links', 'screenshot', 'json'), { maxLength: 3 }) }, { requiredKeys: [] }),
          json,
        )
        .map((o) => JSON.stringify(o)),
    },
    text,
  ),
});

/** A multipart/form-data body: its boundary and its raw bytes, sometimes cut short or without a closing boundary. */
const multipartBody = fc
  .tuple(
    fc.constantFrom('b0undary', '----x', 'a b'),
    fc.array(uploadPart, { minLength: 0, maxLength: 3 }),
    fc.constantFrom('closed', 'closed', 'closed', 'open', 'cut'),
  )
  .map(([boundary, parts, end]) => {
    const body = parts
      .map((p) => {
        const disposition = `form-data; name="${p.name}"${p.filename === null ? '' : `; filename="${p.filename}"`}`;
        return `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${p.type === null ? '' : `Content-Type: ${p.type}\r\n`}\r\n${p.content}\r\n`;
      })
      .join('');
    const raw = Buffer.from(end === 'open' ? body : `${body}--${boundary}--\r\n`);
    return { boundary, body: end === 'cut' ? raw.subarray(0, Math.floor(raw.length / 2)) : raw };
  });

const auth = fc.oneof(
  { weight: 8, arbitrary: fc.constant<string | undefined>('valid') },
  fc.constantFrom<string | undefined>(undefined, 'Bearer', 'Bearer ', 'Basic abc', 'Bearer fc-0000', 'bearer  fc-x  y', `Bearer ${'a'.repeat(5000)}`),
  fc.string({ unit: 'binary-ascii', maxLength: 40 }).map((t) => `Bearer ${t.replace(/[^\x21-\x7e]/g, '')}`),
);

const extraHeaders = fc
  .dictionary(
    fc.oneof(
      fc.constantFrom(
        'x-forwarded-for',
        'x-forwarded-proto',
        'x-forwarded-host',
        'forwarded',
        'accept',
        'accept-encoding',
        'user-agent',
        'x-request-id',
        'x-idempotency-key',
        'expect',
        'origin',
        'cookie',
      ),
      fc.stringMatching(/^x-[a-z0-9-]{1,20}$/),
    ),
    fc.oneof(fc.string({ maxLength: 60 }), fc.string({ unit: 'binary', maxLength: 60 })).map((t) => t.replace(/[^\t\x20-\x7e\x80-\xff]/g, '')),
    { maxKeys: 4 },
  )
  .map((hs) => Object.fromEntries(Object.entries(hs).filter(([name, value]) => !(name === 'expect' && value !== '100-continue'))));

/** Bytes a path may carry as they are (Node refuses others): the rest is percent-encoded, and '%' is sometimes left bare. */
function pathText(raw: string): string {
  return [...raw].map((ch) => (/^[\x21-\x7e]$/.test(ch) ? ch : [...Buffer.from(ch)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join(''))).join('');
}
const segment = fc.oneof(
  fc.string({ maxLength: 30 }).map(pathText),
  fc.string({ unit: 'binary', maxLength: 10 }).map(pathText),
  fc.constantFrom('%', '%zz', '%E0%A4%A', '..', '.', '%2e%2e', '%2F', '%00', 'a'.repeat(10_000)),
);
/** An id of `own` (rows of the fuzzing team), of nobody, or no id at all. */
const idFrom = (own: () => string[]) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.nat().map((i) => own()[i % own().length]) },
    { weight: 2, arbitrary: fc.uuid() },
    { weight: 1, arbitrary: fc.uuid().map((u) => u.toUpperCase()) },
    { weight: 2, arbitrary: segment },
  );
const queryValue = fc.oneof(
  fc.integer({ min: -10, max: 2000 }).map(String),
  intish.map(String),
  fc.constantFrom('', 'NaN', 'Infinity', '1e3', '0x10', ' 5', '5 ', '[]', '%', '%zz'),
  fc.string({ maxLength: 20 }),
);
const query = fc.oneof(
  fc.constant(''),
  fc
    .array(fc.tuple(fc.constantFrom('skip', 'limit', 'skip[]', 'limit[a]', 'next', '__proto__', 'constructor'), queryValue), { maxLength: 4 })
    .map((pairs) => `?${pathText(pairs.map(([k, v]) => `${k}=${v}`).join('&'))}`),
  fc.string({ maxLength: 40 }).map((t) => `?${pathText(t)}`),
);

const activityQuery = fc
  .record(
    {
      endpoint: fc.oneof(fc.constantFrom('crawl', 'map', 'scrape', 'batch_scrape', 'search', 'browser', 'Crawl', 'nope', ''), fc.string({ maxLength: 12 })),
      limit: queryValue,
      cursor: fc.oneof(
        fc.string({ maxLength: 60 }),
        fc.uuid().map((u) => Buffer.from(`2026-11-01T00:00:00.000Z|${u}`).toString('base64url')),
        fc.base64String({ maxLength: 80 }),
      ),
    },
    { requiredKeys: [] },
  )
  .map(
    (q) =>
      `?${pathText(
        Object.entries(q)
          .map(([k, v]) => `${k}=${v}`)
          .join('&'),
      )}`,
  );

/** Headers, and sometimes a body, around a request of `method` to `path`. */
const sessionRequest = fc.record(
  {
    ttl: maybe(fc.oneof(intish, fc.constantFrom(30, 600, 3600, 3601))),
    activityTtl: maybe(fc.oneof(intish, fc.constantFrom(10, 300, 9))),
    streamWebView: maybe(fc.boolean()),
    recordSession: maybe(fc.boolean()),
    profile: maybe(fc.record({ name: maybe(fc.oneof(text, fc.constantFrom('p', 'x'.repeat(129)))), saveChanges: maybe(fc.boolean()) }, { requiredKeys: [] })),
    origin: maybe(text),
    integration: maybe(text),
  },
  { requiredKeys: [] },
);
const executeRequest = fc.record(
  {
    code: maybe(fc.oneof(text, fc.constantFrom('1', 'await page.title()', 'x'.repeat(100_001)))),
    language: maybe(fc.constantFrom('node', 'python', 'bash', 'ruby', '')),
    timeout: maybe(fc.oneof(intish, fc.constantFrom(1, 300, 301))),
    origin: maybe(text),
  },
  { requiredKeys: [] },
);
const interactRequest = fc.record(
  {
    code: maybe(fc.oneof(text, fc.constantFrom('1', 'await page.title()', '', 'x'.repeat(100_001)))),
    prompt: maybe(fc.oneof(text, fc.constantFrom('what is the title?', '', 'x'.repeat(10_001)))),
    language: maybe(fc.constantFrom('node', 'python', 'bash', 'ruby', '')),
    timeout: maybe(fc.oneof(intish, fc.constantFrom(1, 300, 301))),
    origin: maybe(text),
  },
  { requiredKeys: [] },
);
const searchText = fc.oneof(
  text,
  fc.constantFrom(
    'rust',
    '"exact phrase"',
    '"unterminated',
    'site:',
    'site:example.com -site:a.b',
    'filetype:pdf -filetype:',
    'inurl:x allinurl: a b',
    'intitle:"x y" allintitle:',
    'related:a.com related:b.com',
    'imagesize:10x10 larger:axb',
    '-',
    '- -x',
    'x'.repeat(501),
  ),
  fc
    .array(fc.constantFrom('a', '-b', '"c d"', 'site:e.com', 'filetype:f', 'inurl:g', 'intitle:h', 'larger:1x1', 'related:i.org', '""', '-"'), { maxLength: 8 })
    .map((parts) => parts.join(' ')),
);
/** Mostly absent, so that some whole requests are valid: each field present breaks one in a few. */
const seldom = <T>(a: fc.Arbitrary<T>) => fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: a });
const searchRequest = fc.record(
  {
    query: maybe(searchText),
    limit: seldom(maybe(intish)),
    sources: seldom(
      maybe(
        fc.array(
          fc.oneof(
            fc.constantFrom('web', 'images', 'news', 'video', 'alexandria'),
            fc.record({ type: fc.constantFrom('web', 'news', 'x', 'alexandria'), tbs: maybe(text) }, { requiredKeys: [] }),
          ),
          { maxLength: 4 },
        ),
      ),
    ),
    categories: seldom(
      maybe(
        fc.array(
          fc.oneof(
            fc.constantFrom('github', 'research', 'pdf', 'developer', 'gov', 'repo', 'devdex'),
            fc.record({ type: fc.constantFrom('github', 'pdf', 'developer'), sites: maybe(fc.array(text, { maxLength: 2 })) }, { requiredKeys: [] }),
          ),
          { maxLength: 4 },
        ),
      ),
    ),
    includeDomains: seldom(maybe(fc.array(fc.oneof(fc.constantFrom('example.com', 'https://a.com/x', ''), text), { maxLength: 3 }))),
    excludeDomains: seldom(maybe(fc.array(fc.constantFrom('example.com', 'b.org'), { maxLength: 2 }))),
    tbs: seldom(
      maybe(
        fc.oneof(
          fc.constantFrom('qdr:h', 'qdr:d3', 'sbd:1,qdr:w', 'cdr:1,cd_min:01/01/2026,cd_max:12/31/2026', 'cdr:1,cd_min:13/45/2026', 'qdr:x', 'when:now'),
          text,
        ),
      ),
    ),
    location: seldom(maybe(text)),
    country: seldom(maybe(fc.constantFrom('US', 'de', 'xx', ''))),
    lang: seldom(maybe(fc.constantFrom('en', 'de-DE', ''))),
    timeout: seldom(maybe(intish)),
    ignoreInvalidURLs: seldom(maybe(fc.boolean())),
    enterprise: seldom(maybe(fc.array(fc.constantFrom('default', 'anon', 'zdr', 'x'), { maxLength: 3 }))),
    highlights: seldom(maybe(fc.boolean())),
    domainTools: seldom(maybe(fc.boolean())),
    toolDetail: seldom(maybe(fc.constantFrom('compact', 'summary', 'full', 'all'))),
    threatProtection: seldom(
      maybe(
        fc.record(
          {
            mode: maybe(fc.constantFrom('off', 'manual-only', 'normal', 'zscaler', 'strict')),
            riskScoreThreshold: maybe(intish),
            blacklist: maybe(fc.array(fc.oneof(fc.constantFrom('*.example.com', '*', 'a*b*c', ''), text), { maxLength: 3 })),
            whitelist: maybe(fc.array(fc.constantFrom('example.com', '*.ok.org'), { maxLength: 2 })),
            blockedTlds: maybe(fc.array(fc.constantFrom('zip', '.zip', 'x-y', ''), { maxLength: 2 })),
            failurePolicy: maybe(fc.constantFrom('open', 'closed', 'sometimes')),
          },
          { requiredKeys: [] },
        ),
      ),
    ),
    scrapeOptions: seldom(maybe(scrapeOptions)),
  },
  { requiredKeys: ['query'] },
);

/** The query strings, paths and bodies the SDKs send to the routes of cloud services (refused 501 when valid). */
const paperId = fc.oneof(fc.constantFrom('doi:10.1000/xyz', 'pmid:123', 'arxiv:2401.00001', '%2F'), segment);
const researchQuery = (first: string) =>
  fc.oneof(
    query,
    fc.constantFrom(
      `?${first}=tau&k=5&origin=js-sdk`,
      `?${first}=tau&k=0`,
      `?${first}=&k=3`,
      `?${first}=x&k=501`,
      `?${first}=x&from=2024-13-1`,
      `?${first}=x&authors=a&authors=b&categories=q-bio.GN`,
      `?${first}=x&mode=citers&rerank=maybe`,
      '?k=3',
    ),
  );
const feedbackFields = {
  rating: maybe(fc.constantFrom('good', 'partial', 'bad', 'great')),
  valuableSources: maybe(fc.array(fc.record({ url: maybe(text), reason: maybe(text) }, { requiredKeys: [] }), { maxLength: 2 })),
  missingContent: maybe(fc.array(fc.record({ topic: maybe(text) }, { requiredKeys: [] }), { maxLength: 2 })),
  querySuggestions: maybe(text),
  integration: maybe(fc.oneof(text, fc.constant(null))),
  origin: maybe(text),
};
const searchFeedbackRequest = fc.record(feedbackFields, { requiredKeys: ['rating'] });
const feedbackRequest = fc.record(
  {
    ...feedbackFields,
    endpoint: maybe(fc.constantFrom('search', 'scrape', 'parse', 'map', 'crawl')),
    jobId: maybe(fc.oneof(fc.uuid(), text)),
    pageNumbers: maybe(fc.array(intish, { maxLength: 3 })),
    metadata: maybe(fc.dictionary(key, json, { maxKeys: 3 })),
  },
  { requiredKeys: ['rating', 'endpoint', 'jobId'] },
);
const developerSearchRequest = fc.record(
  {
    query: maybe(searchText),
    k: maybe(intish),
    passages: maybe(intish),
    types: maybe(fc.array(fc.constantFrom('doc', 'issue', 'pull_request', 'readme', 'wiki'), { maxLength: 5 })),
    repos: maybe(fc.array(text, { maxLength: 3 })),
    min_stars: maybe(intish),
    archived: maybe(fc.boolean()),
    skills: maybe(fc.constantFrom('only', 'all')),
    origin: maybe(text),
  },
  { requiredKeys: ['query'] },
);
const govSearchRequest = fc.record(
  {
    query: maybe(searchText),
    k: maybe(intish),
    jurisdiction: maybe(fc.constantFrom('us', 'us-ca', '')),
    courtType: maybe(fc.constantFrom('federal-supreme', 'state-trial', 'county')),
    cites: maybe(text),
    origin: maybe(text),
  },
  { requiredKeys: ['query'] },
);
const monitorSchedule = fc.oneof(
  fc.record(
    {
      text: maybe(fc.constantFrom('every 15 minutes', 'hourly', 'daily at 9:00', 'weekdays at 18:30', 'every 0 minutes', 'at teatime', '')),
      timezone: maybe(fc.constantFrom('UTC', 'Europe/Berlin', 'Mars/Olympus', '')),
    },
    { requiredKeys: [] },
  ),
  // Far away: a schedule the HTTP pass makes never fires while the tests run.
  fc.record(
    { cron: maybe(fc.constantFrom('0 3 1 1 *', '* * * * *', '61 * * * *', 'x', '')), timezone: maybe(fc.constantFrom('UTC', 'x')) },
    { requiredKeys: [] },
  ),
);
const monitorTarget = fc.oneof(
  fc.record(
    { id: maybe(text), type: fc.constant('scrape'), urls: maybe(fc.array(url, { maxLength: 3 })), scrapeOptions: seldom(maybe(scrapeOptions)) },
    { requiredKeys: ['type'] },
  ),
  fc.record(
    { type: fc.constant('crawl'), url: maybe(url), crawlOptions: seldom(maybe(fc.record({ limit: maybe(intish) }, { requiredKeys: [] }))) },
    { requiredKeys: ['type'] },
  ),
  fc.record(
    {
      type: fc.constant('search'),
      queries: maybe(fc.array(text, { maxLength: 3 })),
      searchWindow: maybe(fc.constantFrom('5m', '1h', '7d', '1y')),
      maxResults: maybe(intish),
    },
    { requiredKeys: ['type'] },
  ),
  json,
);
const monitorFields = {
  name: maybe(fc.oneof(text, fc.constantFrom('watch', 'x'.repeat(257)))),
  schedule: maybe(monitorSchedule),
  targets: maybe(fc.array(monitorTarget, { maxLength: 3 })),
  webhook: seldom(maybe(fc.record({ url, events: maybe(fc.array(fc.constantFrom('monitor.page', 'monitor.check.completed', 'x'))) }, { requiredKeys: [] }))),
  notification: seldom(
    maybe(
      fc.record(
        { email: maybe(fc.record({ enabled: maybe(fc.boolean()), recipients: maybe(fc.array(fc.constantFrom('a@b.co', 'nope'))) }, { requiredKeys: [] })) },
        { requiredKeys: [] },
      ),
    ),
  ),
  retentionDays: seldom(maybe(intish)),
  goal: seldom(maybe(text)),
  judgeEnabled: seldom(maybe(fc.boolean())),
};
const createMonitorRequest = fc.oneof(
  { weight: 4, arbitrary: fc.record(monitorFields, { requiredKeys: [] }) },
  // Every field valid: the other generators seldom line up a name, a schedule and a target at once.
  fc.record({
    name: fc.constantFrom('watch', 'prices'),
    schedule: fc.constantFrom({ cron: '0 3 1 1 *' }, { cron: '0 3 1 1 *', timezone: 'Europe/Berlin' }),
    targets: fc.constantFrom([{ type: 'scrape', urls: ['http://example.com/'] }], [{ type: 'crawl', url: 'http://example.com/', crawlOptions: { limit: 2 } }]),
  }),
);
const updateMonitorRequest = fc.record({ ...monitorFields, status: maybe(fc.constantFrom('active', 'paused', 'deleted', '')) }, { requiredKeys: [] });
const monitorId = fc.oneof({ weight: 4, arbitrary: fc.uuid() }, segment);
const monitorQuery = fc.oneof(query, fc.constantFrom('?limit=1', '?limit=0', '?limit=101', '?offset=-1', '?limit=x', '?skip=2&status=changed', '?status=gone'));

const sessionQuery = fc.oneof(
  query,
  fc.constantFrom('?status=active', '?status=destroyed', '?status=error', '?status=starting', '?status=', '?status[]=active', '?status=active&status=error'),
);

/** The /v1 scrape options (src/features/v1/scrape-options.ts): format strings with their side objects. */
const v1JsonOptions = fc.record(
  { prompt: maybe(text), schema: maybe(fc.oneof(fc.constant(null), fc.constant({ type: 'object' }), json)), systemPrompt: maybe(text), mode: maybe(text) },
  { requiredKeys: [] },
);
const v1ScrapeOptions = fc.record(
  {
    formats: seldom(
      maybe(
        fc.array(fc.constantFrom('markdown', 'html', 'content', 'extract', 'json', 'rawBase64', 'screenshot@fullPage', 'changeTracking', 'images'), {
          maxLength: 4,
        }),
      ),
    ),
    jsonOptions: seldom(maybe(v1JsonOptions)),
    extract: seldom(maybe(v1JsonOptions)),
    changeTrackingOptions: seldom(maybe(fc.record({ modes: maybe(fc.array(text, { maxLength: 2 })), tag: maybe(fc.option(text)) }, { requiredKeys: [] }))),
    parsePDF: seldom(maybe(fc.boolean())),
    geolocation: seldom(maybe(fc.record({ country: maybe(fc.constantFrom('US', 'de', '')) }, { requiredKeys: [] }))),
    timeout: seldom(maybe(fc.oneof(intish, fc.constantFrom(30_000, 300_001)))),
    waitFor: seldom(maybe(intish)),
    proxy: seldom(maybe(fc.constantFrom('basic', 'stealth', 'residential'))),
    maxAge: seldom(maybe(intish)),
    headers: seldom(maybe(headerMap)),
    actions: seldom(maybe(fc.array(action, { maxLength: 3 }))),
  },
  { requiredKeys: [] },
);
const v1ScrapeRequest = fc
  .tuple(v1ScrapeOptions, fc.record({ url, agent: seldom(maybe(json)), origin: maybe(text) }, { requiredKeys: [] }))
  .map(([o, r]) => ({ ...o, ...r }));
const v1CrawlRequest = fc.record(
  {
    url,
    maxDepth: seldom(maybe(intish)),
    ignoreSitemap: seldom(maybe(fc.boolean())),
    allowBackwardLinks: seldom(maybe(fc.boolean())),
    sitemap: seldom(maybe(fc.constantFrom('skip'))),
    limit: seldom(maybe(intish)),
    includePaths: seldom(maybe(fc.array(fc.oneof(fc.constantFrom('^/blog/', '(unclosed'), text), { maxLength: 2 }))),
    webhook: seldom(maybe(webhook)),
    scrapeOptions: seldom(maybe(v1ScrapeOptions)),
  },
  { requiredKeys: ['url'] },
);
const v1BatchRequest = fc
  .tuple(
    v1ScrapeOptions,
    fc.record(
      {
        urls: maybe(fc.array(fc.oneof({ weight: 6, arbitrary: fc.constantFrom('http://127.0.0.1:9/a', 'http://127.0.0.1:9/b?c=d') }, url), { maxLength: 4 })),
        ignoreInvalidURLs: seldom(maybe(fc.boolean())),
        agent: seldom(maybe(json)),
      },
      { requiredKeys: ['urls'] },
    ),
  )
  .map(([o, r]) => ({ ...o, ...r }));
const v1MapRequest = fc.record(
  {
    url,
    ignoreSitemap: seldom(maybe(fc.boolean())),
    sitemapOnly: seldom(maybe(fc.boolean())),
    useIndex: seldom(maybe(fc.boolean())),
    limit: seldom(maybe(intish)),
    timeout: seldom(maybe(intish)),
    includePaths: seldom(maybe(fc.array(text, { maxLength: 2 }))),
  },
  { requiredKeys: ['url'] },
);
const v1SearchRequest = fc.record(
  { query: maybe(searchText), limit: seldom(maybe(intish)), lang: seldom(maybe(text)), scrapeOptions: seldom(maybe(v1ScrapeOptions)), sources: seldom(json) },
  { requiredKeys: ['query'] },
);
const v1ExtractRequest = fc.record(
  {
    urls: maybe(fc.oneof(fc.constant(null), fc.array(fc.oneof(fc.constantFrom('http://127.0.0.1:9/a', 'http://127.0.0.1:9/*'), url), { maxLength: 3 }))),
    prompt: maybe(text),
    schema: seldom(maybe(fc.oneof(fc.constant(null), fc.constant({ type: 'object' }), json))),
    urlTrace: seldom(maybe(fc.boolean())),
    scrapeOptions: seldom(maybe(v1ScrapeOptions)),
  },
  { requiredKeys: [] },
);

/**
 * Requests that pass every check of a route whose generated requests rarely do (its body, path, key, headers and
 * encoding must all line up): the in-process layer mixes some in, so that each run reaches past validation without
 * generating thousands of requests first. Valid bodies go to ended browser sessions (a 410) and, for the routes of
 * cloud services, are refused 501.
 */
export function validRequests(fixtures: RouteFixtures): Map<string, fc.Arbitrary<Shot>> {
  const post = (path: fc.Arbitrary<string>, body: fc.Arbitrary<unknown>) =>
    fc.record({ path, body }).map(({ path: p, body: b }) =>
      withDescription({
        method: 'POST',
        path: p,
        headers: { authorization: `Bearer ${fixtures.apiKey}`, 'content-type': 'application/json' },
        body: Buffer.from(JSON.stringify(b)),
        chunked: false,
      }),
    );
  const query = fc.constantFrom('rust', 'site:example.com "exact phrase"');
  const code = fc.record({ code: fc.constantFrom('1', 'await page.title()'), language: fc.constantFrom('node', 'python') });
  return new Map([
    [
      'POST /v2/search/developer',
      post(fc.constant('/v2/search/developer'), fc.record({ query, k: fc.integer({ min: 1, max: 100 }) }, { requiredKeys: ['query'] })),
    ],
    ['POST /v2/search/gov', post(fc.constant('/v2/search/gov'), fc.record({ query, k: fc.integer({ min: 1, max: 100 }) }, { requiredKeys: ['query'] }))],
    [
      'POST /v2/feedback',
      post(
        fc.constant('/v2/feedback'),
        fc.record({ rating: fc.constantFrom('good', 'partial', 'bad'), endpoint: fc.constantFrom('search', 'scrape', 'parse', 'map'), jobId: fc.uuid() }),
      ),
    ],
    [
      'POST /v2/search/:id/feedback',
      post(
        fc.uuid().map((id) => `/v2/search/${id}/feedback`),
        fc.record({ rating: fc.constantFrom('good', 'partial', 'bad') }),
      ),
    ],
    // The first two fixture sessions have ended (destroyed, error).
    [
      'POST /v2/browser/:id/execute',
      post(
        fc.nat(1).map((i) => `/v2/browser/${fixtures.sessionIds[i]}/execute`),
        code,
      ),
    ],
    [
      'POST /v2/scrape/:id/interact',
      post(
        fc.nat(1).map((i) => `/v2/scrape/${fixtures.scrapeIds[i]}/interact`),
        fc.oneof(code, fc.record({ prompt: fc.constant('what is the title?') })),
      ),
    ],
  ]);
}

/** Every route, named as the tests report it, with the requests generated for it; the fixtures are read as requests are generated, so they may be filled in later (in a beforeAll). */
export function routeRequests(fixtures: RouteFixtures): [string, fc.Arbitrary<Shot>][] {
  const crawlId = idFrom(() => fixtures.crawlIds);
  const batchId = idFrom(() => fixtures.batchIds);
  const scrapeId = idFrom(() => fixtures.scrapeIds);
  const sessionId = idFrom(() => fixtures.sessionIds);
  /** A batch may append to the fixtures' running batch. */
  const batchRequest = batchRequestOf(() => fixtures.batchIds[1]);
  function shot(method: fc.Arbitrary<string>, path: fc.Arbitrary<string>, bodyWeight: number, request: fc.Arbitrary<unknown> = crawlRequest) {
    const none: { body?: Buffer; encoding?: string } = {};
    const body = fc.oneof(
      { weight: bodyWeight, arbitrary: encodedBody(request).map((e): typeof none => e) },
      { weight: 10 - bodyWeight, arbitrary: fc.constant(none) },
    );
    return fc
      .record({ method, path, auth, contentType: fc.option(contentType, { freq: 8 }), extraHeaders, body, chunked: fc.boolean() })
      .map(({ method: m, path: p, auth: a, contentType: ct, extraHeaders: extra, body: b, chunked }) => {
        const headers: Record<string, string> = { ...extra };
        if (a === 'valid') headers.authorization = `Bearer ${fixtures.apiKey}`;
        else if (a !== undefined) headers.authorization = a;
        if (b.body && ct !== null) headers['content-type'] = ct;
        if (b.encoding) headers['content-encoding'] = b.encoding;
        return withDescription({ method: m, path: p, headers, body: b.body, chunked: chunked && b.body !== undefined && b.body.length > 1 });
      });
  }

  return [
    [
      'POST /v2/crawl',
      shot(
        fc.constant('POST'),
        fc.oneof(
          { weight: 9, arbitrary: fc.constant('/v2/crawl') },
          query.map((q) => `/v2/crawl${q}`),
        ),
        10,
      ),
    ],
    [
      'GET /v2/crawl/:id',
      shot(
        fc.constant('GET'),
        fc.tuple(crawlId, query).map(([id, q]) => `/v2/crawl/${id}${q}`),
        1,
      ),
    ],
    [
      'GET /v2/crawl/:id/errors',
      shot(
        fc.constant('GET'),
        fc.tuple(crawlId, query).map(([id, q]) => `/v2/crawl/${id}/errors${q}`),
        1,
      ),
    ],
    [
      'GET /v2/crawl/:id/webhooks',
      shot(
        fc.constant('GET'),
        fc.tuple(crawlId, query).map(([id, q]) => `/v2/crawl/${id}/webhooks${q}`),
        1,
      ),
    ],
    [
      'GET /v2/crawl/active',
      shot(
        fc.constant('GET'),
        query.map((q) => `/v2/crawl/active${q}`),
        1,
      ),
    ],
    [
      'GET /v2/crawl/ongoing',
      shot(
        fc.constant('GET'),
        query.map((q) => `/v2/crawl/ongoing${q}`),
        1,
      ),
    ],
    [
      'DELETE /v2/crawl/:id',
      shot(
        fc.constant('DELETE'),
        fc.tuple(crawlId, query).map(([id, q]) => `/v2/crawl/${id}${q}`),
        3,
      ),
    ],
    [
      'POST /v2/scrape',
      shot(
        fc.constant('POST'),
        fc.oneof(
          { weight: 9, arbitrary: fc.constant('/v2/scrape') },
          query.map((q) => `/v2/scrape${q}`),
        ),
        10,
        scrapeRequest,
      ),
    ],
    [
      'GET /v2/scrape/:id',
      shot(
        fc.constant('GET'),
        fc.tuple(scrapeId, query).map(([id, q]) => `/v2/scrape/${id}${q}`),
        1,
      ),
    ],
    [
      'POST /v2/scrape/:id/interact',
      shot(
        fc.constant('POST'),
        fc.tuple(scrapeId, query).map(([id, q]) => `/v2/scrape/${id}/interact${q}`),
        10,
        interactRequest,
      ),
    ],
    [
      'DELETE /v2/scrape/:id/interact',
      shot(
        fc.constant('DELETE'),
        fc.tuple(scrapeId, query).map(([id, q]) => `/v2/scrape/${id}/interact${q}`),
        3,
      ),
    ],
    [
      'POST /v2/map',
      shot(
        fc.constant('POST'),
        fc.oneof(
          { weight: 9, arbitrary: fc.constant('/v2/map') },
          query.map((q) => `/v2/map${q}`),
        ),
        10,
        mapRequest,
      ),
    ],
    [
      'POST /v2/batch/scrape',
      shot(
        fc.constant('POST'),
        fc.oneof(
          { weight: 9, arbitrary: fc.constant('/v2/batch/scrape') },
          query.map((q) => `/v2/batch/scrape${q}`),
        ),
        10,
        batchRequest,
      ),
    ],
    [
      'GET /v2/batch/scrape/:id',
      shot(
        fc.constant('GET'),
        fc.tuple(batchId, query).map(([id, q]) => `/v2/batch/scrape/${id}${q}`),
        1,
      ),
    ],
    [
      'GET /v2/batch/scrape/:id/errors',
      shot(
        fc.constant('GET'),
        fc.tuple(batchId, query).map(([id, q]) => `/v2/batch/scrape/${id}/errors${q}`),
        1,
      ),
    ],
    [
      'DELETE /v2/batch/scrape/:id',
      shot(
        fc.constant('DELETE'),
        fc.tuple(batchId, query).map(([id, q]) => `/v2/batch/scrape/${id}${q}`),
        3,
      ),
    ],
    [
      'POST /v2/search',
      shot(
        fc.constant('POST'),
        fc.oneof(
          { weight: 9, arbitrary: fc.constant('/v2/search') },
          query.map((q) => `/v2/search${q}`),
        ),
        10,
        searchRequest,
      ),
    ],
    ...(
      [
        ['/v1/scrape', v1ScrapeRequest],
        ['/v1/crawl', v1CrawlRequest],
        ['/v1/batch/scrape', v1BatchRequest],
        ['/v1/map', v1MapRequest],
        ['/v1/search', v1SearchRequest],
        ['/v1/extract', v1ExtractRequest],
      ] as const
    ).map(([path, request]): [string, fc.Arbitrary<Shot>] => [
      `POST ${path}`,
      shot(
        fc.constant('POST'),
        fc.oneof(
          { weight: 9, arbitrary: fc.constant(path) },
          query.map((q) => `${path}${q}`),
        ),
        10,
        request,
      ),
    ]),
    [
      'GET /v1/crawl/:id',
      shot(
        fc.constant('GET'),
        fc.tuple(fc.oneof(crawlId, batchId), query).map(([id, q]) => `/v1/crawl/${id}${q}`),
        1,
      ),
    ],
    [
      'DELETE /v1/crawl/:id/errors',
      shot(
        fc.constant('DELETE'),
        fc.tuple(fc.oneof(crawlId, batchId), query).map(([id, q]) => `/v1/crawl/${id}/errors${q}`),
        3,
      ),
    ],
    [
      'POST /v2/browser',
      shot(
        fc.constant('POST'),
        fc.oneof(
          { weight: 8, arbitrary: fc.constant('/v2/browser') },
          fc.constant('/v2/interact'),
          query.map((q) => `/v2/browser${q}`),
        ),
        10,
        sessionRequest,
      ),
    ],
    [
      'GET /v2/browser',
      shot(
        fc.constant('GET'),
        fc.tuple(fc.constantFrom('/v2/browser', '/v2/interact'), sessionQuery).map(([p, q]) => `${p}${q}`),
        1,
      ),
    ],
    [
      'GET /v2/browser/:id',
      shot(
        fc.constant('GET'),
        fc.tuple(sessionId, query).map(([id, q]) => `/v2/browser/${id}${q}`),
        1,
      ),
    ],
    [
      'DELETE /v2/browser/:id',
      shot(
        fc.constant('DELETE'),
        fc.tuple(sessionId, query).map(([id, q]) => `/v2/browser/${id}${q}`),
        3,
      ),
    ],
    [
      'POST /v2/browser/:id/execute',
      shot(
        fc.constant('POST'),
        fc.tuple(sessionId, query).map(([id, q]) => `/v2/browser/${id}/execute${q}`),
        10,
        executeRequest,
      ),
    ],
    [
      'POST /v2/monitor',
      shot(
        fc.constant('POST'),
        fc.oneof(
          { weight: 9, arbitrary: fc.constant('/v2/monitor') },
          query.map((q) => `/v2/monitor${q}`),
        ),
        10,
        createMonitorRequest,
      ),
    ],
    [
      'GET /v2/monitor',
      shot(
        fc.constant('GET'),
        monitorQuery.map((q) => `/v2/monitor${q}`),
        1,
      ),
    ],
    [
      'GET /v2/monitor/:id',
      shot(
        fc.constant('GET'),
        fc.tuple(monitorId, query).map(([id, q]) => `/v2/monitor/${id}${q}`),
        1,
      ),
    ],
    [
      'PATCH /v2/monitor/:id',
      shot(
        fc.constant('PATCH'),
        fc.tuple(monitorId, query).map(([id, q]) => `/v2/monitor/${id}${q}`),
        10,
        updateMonitorRequest,
      ),
    ],
    [
      'DELETE /v2/monitor/:id',
      shot(
        fc.constant('DELETE'),
        fc.tuple(monitorId, query).map(([id, q]) => `/v2/monitor/${id}${q}`),
        3,
      ),
    ],
    [
      'POST /v2/monitor/:id/run',
      shot(
        fc.constant('POST'),
        fc.tuple(monitorId, query).map(([id, q]) => `/v2/monitor/${id}/run${q}`),
        3,
      ),
    ],
    [
      'GET /v2/monitor/:id/checks',
      shot(
        fc.constant('GET'),
        fc.tuple(monitorId, monitorQuery).map(([id, q]) => `/v2/monitor/${id}/checks${q}`),
        1,
      ),
    ],
    [
      'GET /v2/monitor/:id/checks/:checkId',
      shot(
        fc.constant('GET'),
        fc.tuple(monitorId, monitorId, monitorQuery).map(([id, check, q]) => `/v2/monitor/${id}/checks/${check}${q}`),
        1,
      ),
    ],
    ...(
      [
        ['/v2/team/credit-usage', fc.constant('')],
        ['/v2/team/token-usage', fc.constant('')],
        ['/v2/team/queue-status', fc.constant('')],
        ['/v2/concurrency-check', fc.constant('')],
        ['/v2/team/credit-usage/historical', fc.constantFrom('?byApiKey=true', '?byApiKey=false', '?byApiKey=1', '?byApiKey[]=true')],
        ['/v2/team/token-usage/historical', fc.constantFrom('?byApiKey=true', '?byApiKey=false', '?byApiKey=', '?byApiKey=true&byApiKey=false')],
        ['/v2/team/activity', activityQuery],
      ] as const
    ).map(([path, own]): [string, ReturnType<typeof shot>] => [
      `GET ${path}`,
      shot(
        fc.constant('GET'),
        fc.oneof(own, query).map((q) => `${path}${q}`),
        1,
      ),
    ]),
    [
      'POST /v2/parse',
      fc
        .record({
          path: fc.oneof(
            { weight: 9, arbitrary: fc.constant('/v2/parse') },
            query.map((q) => `/v2/parse${q}`),
          ),
          auth,
          form: multipartBody,
          contentType: fc.oneof(
            { weight: 8, arbitrary: fc.constant('multipart/form-data; boundary=') },
            fc.constantFrom('multipart/form-data', 'multipart/mixed; boundary=', 'application/json', 'text/plain'),
          ),
          encoding: fc.constantFrom<string | undefined>(undefined, undefined, undefined, 'gzip', 'identity', 'x-unknown'),
          extraHeaders,
          chunked: fc.boolean(),
        })
        .map(({ path, auth: a, form, contentType: ct, encoding, extraHeaders: extra, chunked }) => {
          const headers: Record<string, string> = { ...extra, 'content-type': ct.endsWith('boundary=') ? `${ct}${form.boundary}` : ct };
          if (a === 'valid') headers.authorization = `Bearer ${fixtures.apiKey}`;
          else if (a !== undefined) headers.authorization = a;
          const body = encoding === 'gzip' ? gzipSync(form.body) : form.body;
          if (encoding) headers['content-encoding'] = encoding;
          return withDescription({ method: 'POST', path, headers, body, chunked: chunked && body.length > 1 });
        }),
    ],
    [
      'GET /v2/parse/formats',
      shot(
        fc.constant('GET'),
        query.map((q) => `/v2/parse/formats${q}`),
        1,
      ),
    ],
    [
      'GET /v2/search/research/papers',
      shot(
        fc.constant('GET'),
        researchQuery('query').map((q) => `/v2/search/research/papers${q}`),
        1,
      ),
    ],
    [
      'GET /v2/search/research/papers/:id',
      shot(
        fc.constant('GET'),
        fc.tuple(paperId, researchQuery('query')).map(([id, q]) => `/v2/search/research/papers/${id}${q}`),
        1,
      ),
    ],
    [
      'GET /v2/search/research/papers/:id/similar',
      shot(
        fc.constant('GET'),
        fc.tuple(paperId, researchQuery('intent')).map(([id, q]) => `/v2/search/research/papers/${id}/similar${q}`),
        1,
      ),
    ],
    [
      'GET /v2/search/research/github',
      shot(
        fc.constant('GET'),
        researchQuery('query').map((q) => `/v2/search/research/github${q}`),
        1,
      ),
    ],
    [
      'POST /v2/search/developer',
      shot(
        fc.constant('POST'),
        query.map((q) => `/v2/search/developer${q}`),
        9,
        developerSearchRequest,
      ),
    ],
    [
      'POST /v2/search/gov',
      shot(
        fc.constant('POST'),
        query.map((q) => `/v2/search/gov${q}`),
        9,
        govSearchRequest,
      ),
    ],
    [
      'POST /v2/feedback',
      shot(
        fc.constant('POST'),
        query.map((q) => `/v2/feedback${q}`),
        9,
        feedbackRequest,
      ),
    ],
    [
      'POST /v2/search/:id/feedback',
      shot(
        fc.constant('POST'),
        fc.tuple(fc.oneof({ weight: 4, arbitrary: fc.uuid() }, segment), query).map(([id, q]) => `/v2/search/${id}/feedback${q}`),
        9,
        searchFeedbackRequest,
      ),
    ],
    [
      'GET /v2/agent',
      shot(
        fc.constant('GET'),
        fc.oneof(query, fc.constantFrom('?before=1700000000000', '?before=soon', '?before=')).map((q) => `/v2/agent${q}`),
        1,
      ),
    ],
    [
      'GET /v2/agent/:id/trace',
      shot(
        fc.constant('GET'),
        fc.tuple(monitorId, fc.oneof(query, fc.constantFrom('?liveView=true', '?liveView=yes'))).map(([id, q]) => `/v2/agent/${id}/trace${q}`),
        1,
      ),
    ],
    [
      'GET /v2/agent/:id/snapshots/:snapshotId',
      shot(
        fc.constant('GET'),
        fc.tuple(monitorId, segment, query).map(([id, snapshot, q]) => `/v2/agent/${id}/snapshots/${snapshot}${q}`),
        1,
      ),
    ],
    [
      'GET /v2/agent/threads/:threadId',
      shot(
        fc.constant('GET'),
        fc.tuple(segment, fc.oneof(query, fc.constantFrom('?includeData=true', '?includeData=1'))).map(([id, q]) => `/v2/agent/threads/${id}${q}`),
        1,
      ),
    ],
    [
      'GET /health',
      shot(
        fc.constantFrom('GET', 'GET', 'GET', 'HEAD', 'POST'),
        query.map((q) => `/health${q}`),
        1,
      ),
    ],
    [
      'unknown routes',
      shot(
        fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'PROPFIND'),
        fc.oneof(
          fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => `/v2/${s.join('/')}`),
          fc.array(segment, { minLength: 1, maxLength: 3 }).map((s) => `/${s.join('/')}`),
          fc.tuple(crawlId, segment).map(([id, s]) => `/v2/crawl/${id}/${s}`),
          fc.constantFrom('/', '//', '/v2', '/v2/', '/v2/crawl/', '/V2/crawl', '/v2/crawl/active/x', '/v2/../health', '/v2/scrape', '/v2/team/activity', '*'),
        ),
        3,
      ),
    ],
  ];
}
