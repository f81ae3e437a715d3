import { describe, expect, it } from 'vitest';
import { defaultScrapeOptions, clientOptionWarnings, scrapeOptionsSchema, type ScrapeOptions } from '../../../src/page/scrape-options.ts';
import { UNAVAILABLE_FORMATS } from '../../../src/page/formats/formats-schema.ts';
import { ATTRIBUTES_WITHOUT_SELECTORS_WARNING, MAX_ATTRIBUTE_SELECTORS } from '../../../src/page/formats/attributes/attributes-format.ts';
import { CHANGE_TRACKING_LIMIT_MESSAGE, CHANGE_TRACKING_NEEDS_MARKDOWN_MESSAGE } from '../../../src/page/formats/change-tracking/change-tracking-format.ts';
import { QUESTION_AND_QUERY_MESSAGE } from '../../../src/page/formats/query/query-format.ts';
import { UNRECOGNIZED_KEY_MESSAGE } from '../../../src/platform/http/validation-error.ts';
import { rejectMessage } from './helpers.ts';

function reject(options: Record<string, unknown>): string {
  return rejectMessage(scrapeOptionsSchema, options).error;
}

describe('scrapeOptionsSchema defaults', () => {
  it('parses {} to the documented defaults', () => {
    const expected: ScrapeOptions = {
      formats: [{ type: 'markdown' }],
      onlyMainContent: true,
      onlyCleanContent: false,
      maxAge: 172800000,
      waitFor: 0,
      mobile: false,
      timeout: 60000,
      parsers: [{ type: 'pdf' }, { type: 'image' }],
      removeBase64Images: true,
      blockAds: true,
      proxy: 'auto',
      storeInCache: true,
      lockdown: false,
    };
    expect(scrapeOptionsSchema.parse({})).toStrictEqual(expected);
    expect(defaultScrapeOptions()).toStrictEqual(expected);
    expect(defaultScrapeOptions()).not.toBe(defaultScrapeOptions());
  });

  it('leaves skipTlsVerification undefined unless sent', () => {
    expect(scrapeOptionsSchema.parse({}).skipTlsVerification).toBeUndefined();
    expect(scrapeOptionsSchema.parse({ skipTlsVerification: false }).skipTlsVerification).toBe(false);
    expect(scrapeOptionsSchema.parse({ skipTlsVerification: true }).skipTlsVerification).toBe(true);
  });

  it('keeps the full set of optional fields', () => {
    const parsed = scrapeOptionsSchema.parse({
      includeTags: ['article'],
      excludeTags: ['nav', '.ads'],
      minAge: 0,
      maxAge: 0,
      headers: { 'User-Agent': 'x', Cookie: 'a=b' },
      location: { country: 'de', languages: ['de-DE'] },
      profile: { name: 'shop' },
      proxy: 'stealth',
      mobile: true,
      lockdown: true,
    });
    expect(parsed).toMatchObject({
      includeTags: ['article'],
      excludeTags: ['nav', '.ads'],
      minAge: 0,
      maxAge: 0,
      headers: { 'User-Agent': 'x', Cookie: 'a=b' },
      location: { country: 'DE', languages: ['de-DE'] },
      profile: { name: 'shop', saveChanges: true },
      proxy: 'stealth',
      mobile: true,
      lockdown: true,
    });
  });

  it('defaults location.country to US', () => {
    expect(scrapeOptionsSchema.parse({ location: {} }).location).toStrictEqual({ country: 'US' });
  });
});

describe('scrapeOptionsSchema formats', () => {
  it('normalises strings to objects', () => {
    expect(scrapeOptionsSchema.parse({ formats: ['markdown', 'html', 'rawHtml', 'links', 'screenshot'] }).formats).toStrictEqual([
      { type: 'markdown' },
      { type: 'html' },
      { type: 'rawHtml' },
      { type: 'links' },
      { type: 'screenshot', fullPage: false },
    ]);
  });

  it('normalises screenshot@fullPage', () => {
    expect(scrapeOptionsSchema.parse({ formats: ['screenshot@fullPage'] }).formats).toStrictEqual([{ type: 'screenshot', fullPage: true }]);
  });

  it('accepts object formats with screenshot options', () => {
    const parsed = scrapeOptionsSchema.parse({
      formats: [{ type: 'links' }, { type: 'screenshot', quality: 80, viewport: { width: 1280, height: 720 } }],
    });
    expect(parsed.formats).toStrictEqual([{ type: 'links' }, { type: 'screenshot', fullPage: false, quality: 80, viewport: { width: 1280, height: 720 } }]);
  });

  it('accepts an empty formats list', () => {
    expect(scrapeOptionsSchema.parse({ formats: [] }).formats).toEqual([]);
  });

  it.each(['audio', 'video'])('refuses the SDK format %s it does not produce, as a string and as an object, saying why', (name) => {
    const message = `formats.0: Format "${name}" is not available from this service: ${UNAVAILABLE_FORMATS[name]}`;
    expect(reject({ formats: [name] })).toBe(message);
    expect(reject({ formats: [{ type: name, prompt: 'x' }] })).toBe(message);
  });

  it('produces every format of the SDKs but audio and video', () => {
    expect(Object.keys(UNAVAILABLE_FORMATS)).toEqual(['audio', 'video']);
  });

  it('accepts product and menu as strings and objects, and nothing else in them', () => {
    expect(scrapeOptionsSchema.parse({ formats: ['product', { type: 'menu' }] }).formats).toStrictEqual([{ type: 'product' }, { type: 'menu' }]);
    expect(reject({ formats: [{ type: 'product', prompt: 'x' }] })).toBe(UNRECOGNIZED_KEY_MESSAGE);
  });

  it('accepts images and branding as strings and objects, and attributes with its selectors', () => {
    const parsed = scrapeOptionsSchema.parse({
      formats: ['images', { type: 'branding' }, { type: 'attributes', selectors: [{ selector: 'a.item[data-id]', attribute: 'data-id' }] }],
    });
    expect(parsed.formats).toStrictEqual([
      { type: 'images' },
      { type: 'branding' },
      { type: 'attributes', selectors: [{ selector: 'a.item[data-id]', attribute: 'data-id' }] },
    ]);
  });

  it('takes the attributes format without selectors (a bare format name the SDKs allow), answered with a warning naming it', () => {
    for (const formats of [['attributes'], [{ type: 'attributes' }], [{ type: 'attributes', selectors: [] }]]) {
      const parsed = scrapeOptionsSchema.parse({ formats });
      expect(parsed.formats).toEqual([{ type: 'attributes', selectors: [] }]);
      expect(clientOptionWarnings(parsed)).toEqual([ATTRIBUTES_WITHOUT_SELECTORS_WARNING]);
    }
  });

  it.each([
    [
      { formats: [{ type: 'attributes', selectors: [{ selector: 'div[[', attribute: 'id' }] }] },
      'formats.0.selectors.0.selector: Invalid CSS selector: "div[["',
    ],
    [{ formats: [{ type: 'attributes', selectors: [{ selector: ' ', attribute: 'id' }] }] }, 'formats.0.selectors.0.selector: Invalid CSS selector: " "'],
    [
      { formats: [{ type: 'attributes', selectors: [{ selector: 'a', attribute: '' }] }] },
      'formats.0.selectors.0.attribute: Too small: expected string to have >=1 characters',
    ],
    [
      { formats: [{ type: 'attributes', selectors: Array.from({ length: MAX_ATTRIBUTE_SELECTORS + 1 }, () => ({ selector: 'a', attribute: 'href' })) }] },
      `formats.0.selectors: The attributes format takes at most ${MAX_ATTRIBUTE_SELECTORS} selectors`,
    ],
    [
      {
        formats: [
          { type: 'attributes', selectors: [{ selector: 'a', attribute: 'href' }] },
          { type: 'attributes', selectors: [{ selector: 'img', attribute: 'src' }] },
        ],
      },
      'formats: Only one attributes format is allowed; list every selector in it',
    ],
  ])('rejects the attributes format %j', (options, message) => {
    expect(reject(options)).toBe(message);
  });

  it('rejects unknown keys in an attributes selector', () => {
    expect(reject({ formats: [{ type: 'attributes', selectors: [{ selector: 'a', attribute: 'href', all: true }] }] })).toBe(UNRECOGNIZED_KEY_MESSAGE);
  });

  it('accepts changeTracking beside markdown, as a name or with its options', () => {
    expect(scrapeOptionsSchema.parse({ formats: ['markdown', 'changeTracking'] }).formats).toEqual([
      { type: 'markdown' },
      { type: 'changeTracking', modes: [], tag: undefined },
    ]);
    const format = { type: 'changeTracking', modes: ['git-diff', 'json'], tag: 'prices', prompt: 'the price', schema: { type: 'object' } };
    expect(scrapeOptionsSchema.parse({ formats: ['markdown', format] }).formats[1]).toEqual(format);
    expect(scrapeOptionsSchema.parse({ formats: ['markdown', { type: 'changeTracking', tag: null }] }).formats[1]).toEqual({
      type: 'changeTracking',
      modes: [],
      tag: undefined,
    });
  });

  it('rejects changeTracking without markdown, twice, or with an unknown mode', () => {
    expect(reject({ formats: ['changeTracking'] })).toBe(`formats: ${CHANGE_TRACKING_NEEDS_MARKDOWN_MESSAGE}`);
    expect(reject({ formats: ['markdown', 'changeTracking', { type: 'changeTracking', tag: 'x' }] })).toBe(`formats: ${CHANGE_TRACKING_LIMIT_MESSAGE}`);
    expect(reject({ formats: ['markdown', { type: 'changeTracking', modes: ['text'] }] })).toBe(
      'formats.1.modes.0: changeTracking modes are "git-diff" and "json"',
    );
  });

  it('names the offending item index', () => {
    expect(reject({ formats: ['markdown', 'rawBase64'] })).toBe('formats.1: Format "rawBase64" is not supported by this service');
  });

  it('rejects two screenshot formats', () => {
    expect(reject({ formats: ['screenshot', { type: 'screenshot', fullPage: true }] })).toBe('formats: Only one screenshot format is allowed');
  });

  it.each([
    [{ formats: [{ type: 'screenshot', quality: 0 }] }, 'formats.0.quality: Too small: expected number to be >=1'],
    [{ formats: [{ type: 'screenshot', quality: 101 }] }, 'formats.0.quality: Too big: expected number to be <=100'],
    [{ formats: [{ type: 'screenshot', viewport: { width: 7681, height: 100 } }] }, 'formats.0.viewport.width: Too big: expected number to be <=7680'],
    [{ formats: [{ type: 'screenshot', viewport: { width: 100, height: 4321 } }] }, 'formats.0.viewport.height: Too big: expected number to be <=4320'],
    [{ formats: [42] }, 'formats.0: Invalid format: expected a format name or an object with a "type" field'],
    [{ formats: [{}] }, 'formats.0.type: Invalid format: expected a format name or an object with a "type" field'],
    [{ formats: 'markdown' }, 'formats: Invalid input: expected array, received string'],
  ])('rejects %j', (options, message) => {
    expect(reject(options)).toBe(message);
  });

  it('rejects unknown keys in a format object', () => {
    expect(reject({ formats: [{ type: 'markdown', schema: {} }] })).toBe(UNRECOGNIZED_KEY_MESSAGE);
  });
});

describe('scrapeOptionsSchema parsers', () => {
  it('normalises parser strings and keeps maxPages', () => {
    expect(scrapeOptionsSchema.parse({ parsers: ['pdf'] }).parsers).toStrictEqual([{ type: 'pdf' }]);
    expect(scrapeOptionsSchema.parse({ parsers: [{ type: 'pdf', maxPages: 5 }] }).parsers).toStrictEqual([{ type: 'pdf', maxPages: 5 }]);
    expect(scrapeOptionsSchema.parse({ parsers: [] }).parsers).toStrictEqual([]);
  });

  it('accepts the image parser as a string and an object; it takes no options', () => {
    expect(scrapeOptionsSchema.parse({ parsers: ['image', { type: 'pdf', mode: 'ocr' }] }).parsers).toStrictEqual([
      { type: 'image' },
      { type: 'pdf', mode: 'ocr' },
    ]);
    expect(scrapeOptionsSchema.parse({ parsers: [{ type: 'image' }] }).parsers).toStrictEqual([{ type: 'image' }]);
    expect(rejectMessage(scrapeOptionsSchema, { parsers: [{ type: 'image', mode: 'ocr' }] }).details).toMatchObject([
      { code: 'unrecognized_keys', keys: ['mode'], path: ['parsers', 0] },
    ]);
  });

  it('takes every PDFParser option of the SDKs, folding the deprecated pageMarkdown into pages', () => {
    const all = { type: 'pdf', mode: 'ocr', maxPages: 3, pages: true, blocks: true, pageMarkers: true };
    expect(scrapeOptionsSchema.parse({ parsers: [all] }).parsers).toStrictEqual([all]);
    expect(scrapeOptionsSchema.parse({ parsers: [{ type: 'pdf', pageMarkdown: true }] }).parsers).toStrictEqual([{ type: 'pdf', pages: true }]);
    // As the Python SDK folds it: pages, when given, wins.
    expect(scrapeOptionsSchema.parse({ parsers: [{ type: 'pdf', pages: false, pageMarkdown: true }] }).parsers).toStrictEqual([{ type: 'pdf', pages: false }]);
    expect(reject({ parsers: [{ type: 'pdf', mode: 'slow' }] })).toBe('parsers.0.mode: parsers.mode is one of fast, auto, ocr');
    expect(reject({ parsers: [{ type: 'pdf', blocks: 'yes' }] })).toMatch(/^parsers\.0\.blocks: /);
  });

  it('rejects unsupported parsers and out-of-range maxPages', () => {
    expect(reject({ parsers: ['docx'] })).toBe('parsers.0.type: Parser "docx" is not supported by this service');
    expect(reject({ parsers: [{ type: 'pdf', maxPages: 0 }] })).toBe('parsers.0.maxPages: Too small: expected number to be >=1');
    expect(reject({ parsers: [{ type: 'pdf', maxPages: 10001 }] })).toBe('parsers.0.maxPages: Too big: expected number to be <=10000');
  });
});

describe('scrapeOptionsSchema actions', () => {
  it('accepts every action type and applies defaults', () => {
    const parsed = scrapeOptionsSchema.parse({
      actions: [
        { type: 'wait', milliseconds: 500 },
        { type: 'wait', selector: '#main' },
        { type: 'click', selector: 'button', all: true },
        { type: 'write', text: 'hello' },
        { type: 'press', key: 'Enter' },
        { type: 'scroll' },
        { type: 'scroll', direction: 'up', selector: '.list' },
        { type: 'screenshot', fullPage: true, quality: 50, viewport: { width: 800, height: 600 } },
        { type: 'scrape' },
        { type: 'executeJavascript', script: 'document.title' },
        { type: 'pdf', format: 'A4', landscape: true, scale: 1 },
      ],
    });
    expect(parsed.actions).toHaveLength(11);
    expect(parsed.actions?.[5]).toStrictEqual({ type: 'scroll', direction: 'down' });
  });

  it.each([
    [{ actions: [{ type: 'hover' }] }, 'actions.0.type: Action type "hover" is not supported'],
    [{ actions: [{ selector: 'a' }] }, 'actions.0.type: Invalid action: missing "type"'],
    [{ actions: ['wait'] }, 'actions.0: Invalid action: expected an object with a "type" field'],
    [{ actions: [{ type: 'wait' }] }, 'actions.0: A wait action needs exactly one of milliseconds or selector'],
    [{ actions: [{ type: 'wait', milliseconds: 10, selector: 'a' }] }, 'actions.0: A wait action needs exactly one of milliseconds or selector'],
    [{ actions: [{ type: 'wait', milliseconds: 0 }] }, 'actions.0.milliseconds: Too small: expected number to be >=1'],
    [{ actions: [{ type: 'wait', milliseconds: 60001 }] }, 'actions.0.milliseconds: Too big: expected number to be <=60000'],
    [{ actions: [{ type: 'click' }] }, 'actions.0.selector: Invalid input: expected string, received undefined'],
    [{ actions: [{ type: 'scroll', direction: 'left' }] }, 'actions.0.direction: Invalid option: expected one of "up"|"down"'],
    [
      {
        actions: [
          { type: 'wait', milliseconds: 30000 },
          { type: 'wait', milliseconds: 30001 },
        ],
      },
      'actions: Total wait time of actions exceeds 60 seconds',
    ],
    [{ actions: Array.from({ length: 51 }, () => ({ type: 'scrape' })) }, 'actions: At most 50 actions are allowed'],
  ])('rejects %#', (options, message) => {
    expect(reject(options)).toBe(message);
  });

  it('allows waits totalling exactly 60 seconds', () => {
    expect(
      scrapeOptionsSchema.safeParse({
        actions: [
          { type: 'wait', milliseconds: 30000 },
          { type: 'wait', milliseconds: 30000 },
        ],
      }).success,
    ).toBe(true);
  });

  it('rejects unknown keys in an action', () => {
    expect(reject({ actions: [{ type: 'scrape', full: true }] })).toBe(UNRECOGNIZED_KEY_MESSAGE);
  });
});

describe('scrapeOptionsSchema ranges and refinements', () => {
  it.each([
    [{ waitFor: 30001 }, 'waitFor: waitFor must not exceed half of timeout'],
    [{ waitFor: 600, timeout: 1000 }, 'waitFor: waitFor must not exceed half of timeout'],
    [{ waitFor: -1 }, 'waitFor: Too small: expected number to be >=0'],
    [{ waitFor: 60001, timeout: 300000 }, 'waitFor: Too big: expected number to be <=60000'],
    [{ timeout: 999 }, 'timeout: Too small: expected number to be >=1000'],
    [{ timeout: 300001 }, 'timeout: Too big: expected number to be <=300000'],
    [{ timeout: 1500.5 }, 'timeout: Invalid input: expected int, received number'],
    [{ maxAge: -1 }, 'maxAge: Too small: expected number to be >=0'],
    [{ minAge: -1 }, 'minAge: Too small: expected number to be >=0'],
    [{ proxy: 'residential' }, 'proxy: Invalid option: expected one of "basic"|"stealth"|"enhanced"|"auto"'],
    [{ headers: { 'X-A': 1 } }, 'headers.X-A: Invalid input: expected string, received number'],
    [{ location: { country: 'USA' } }, 'location.country: location.country must be a 2-letter ISO 3166-1 country code (or us-generic)'],
    [{ profile: {} }, 'profile.name: profile.name is required'],
    [{ profile: { name: '' } }, 'profile.name: profile.name must be 1 to 128 characters'],
    [{ profile: { name: 'x'.repeat(129) } }, 'profile.name: profile.name must be 1 to 128 characters'],
  ])('rejects %j', (options, message) => {
    expect(reject(options)).toBe(message);
  });

  it('accepts waitFor equal to half of timeout', () => {
    expect(scrapeOptionsSchema.parse({ waitFor: 30000 }).waitFor).toBe(30000);
    expect(scrapeOptionsSchema.parse({ waitFor: 60000, timeout: 120000 }).waitFor).toBe(60000);
  });

  it.each(['jsonOptions', 'extract', 'parsePDF', 'rawBase64'])('rejects the key %s, which no v2 client sends', (key) => {
    expect(reject({ [key]: true })).toBe(UNRECOGNIZED_KEY_MESSAGE);
  });
});

describe('fields the SDKs send that do not shape the page', () => {
  it('accepts the Python SDK default scrape options as it serializes them', () => {
    const python = {
      onlyMainContent: true,
      skipTlsVerification: true,
      removeBase64Images: true,
      fastMode: false,
      blockAds: true,
      storeInCache: true,
      maxAge: 14400000,
      formats: ['markdown'],
      mobile: false,
    };
    expect(scrapeOptionsSchema.parse(python)).toMatchObject({ fastMode: false, maxAge: 14400000, formats: [{ type: 'markdown' }] });
  });

  it('accepts fastMode, checkPromptInjection, auditMetadata, toolDetail, integration, origin and threat protection off', () => {
    const parsed = scrapeOptionsSchema.parse({
      fastMode: true,
      checkPromptInjection: true,
      auditMetadata: { username: 'ada' },
      toolDetail: 'full',
      integration: null,
      origin: 'python-sdk@4.54.0',
      redactPII: false,
      threatProtection: { mode: 'off', blacklist: ['*.example.com'] },
      location: { country: 'us-generic' },
    });
    expect(parsed).toMatchObject({ fastMode: true, auditMetadata: { username: 'ada' }, location: { country: 'US' } });
  });

  it('answers domainTools with a warning that names it, and nothing for other options', () => {
    expect(clientOptionWarnings(scrapeOptionsSchema.parse({ domainTools: true }))).toEqual([expect.stringMatching(/^domainTools: /)]);
    expect(clientOptionWarnings(scrapeOptionsSchema.parse({ domainTools: false, fastMode: true }))).toEqual([]);
  });

  it.each([
    [{ useMock: 'some-recording' }, /^useMock: useMock is not available from this service: it replays Firecrawl's own recorded test answers/],
    [{ redactPII: true, formats: ['markdown', 'screenshot'] }, /^redactPII: redactPII cannot be combined with the screenshot format: a screenshot is an image/],
    [
      { redactPII: { mode: 'fast' }, formats: ['markdown', { type: 'changeTracking' }] },
      /^redactPII: redactPII cannot be combined with the changeTracking format: its diff shows earlier snapshots/,
    ],
    [{ redactPII: true, actions: [{ type: 'pdf' }] }, /^redactPII: redactPII cannot be combined with a pdf action: its PDF of the page cannot be redacted/],
    [
      { redactPII: { mode: 'fast', entities: ['EMAIL', 'PERSON'] } },
      /^redactPII\.entities: redactPII mode "fast" finds entities by pattern only and PERSON needs the model/,
    ],
    [{ redactPII: { entities: ['SSN'] } }, /^redactPII/],
    [{ threatProtection: { mode: 'manual-only', blacklist: ['https://evil.test/path'] } }, /^threatProtection\.blacklist\.0: must be a domain or a glob/],
    [{ threatProtection: { mode: 'scan-everything' } }, /^threatProtection\.mode/],
  ])('refuses %j with a 400 that names the field and says why', (options, message) => {
    expect(reject(options)).toMatch(message);
  });

  it('accepts redactPII and every threat protection mode the SDKs send', () => {
    expect(scrapeOptionsSchema.parse({ redactPII: true }).redactPII).toBe(true);
    expect(scrapeOptionsSchema.parse({ redactPII: { mode: 'fast', entities: ['EMAIL', 'SECRET'], replaceStyle: 'mask' } }).redactPII).toEqual({
      mode: 'fast',
      entities: ['EMAIL', 'SECRET'],
      replaceStyle: 'mask',
    });
    const threat = { mode: 'normal', riskScoreThreshold: 40, whitelist: ['*.Example.com', 'bücher.de'], blockedTlds: ['zip', '.co.uk'], failurePolicy: 'open' };
    expect(scrapeOptionsSchema.parse({ threatProtection: threat }).threatProtection).toEqual(threat);
    expect(scrapeOptionsSchema.parse({ threatProtection: { mode: 'zscaler' } }).threatProtection).toEqual({ mode: 'zscaler' });
    expect(scrapeOptionsSchema.parse({ auditMetadata: { username: 'a'.repeat(1024) } }).auditMetadata?.username).toHaveLength(1024);
  });

  it('accepts the pdf parser modes and maxPages', () => {
    expect(scrapeOptionsSchema.parse({ parsers: [{ type: 'pdf', mode: 'fast', maxPages: 3 }, 'pdf'] }).parsers[0]).toEqual({
      type: 'pdf',
      mode: 'fast',
      maxPages: 3,
    });
    expect(scrapeOptionsSchema.parse({ parsers: [{ type: 'pdf', mode: 'auto' }] }).parsers).toEqual([{ type: 'pdf', mode: 'auto' }]);
  });
});

describe('model formats', () => {
  it('accepts query in both modes, freeform by default, as the SDKs send it', () => {
    const parsed = scrapeOptionsSchema.parse({
      formats: [{ type: 'query', prompt: ' Price? ' }],
    }).formats;
    expect(parsed).toEqual([{ type: 'query', prompt: 'Price?', mode: 'freeform' }]);
    expect(scrapeOptionsSchema.parse({ formats: [{ type: 'query', prompt: 'p', mode: 'directQuote' }] }).formats).toEqual([
      { type: 'query', prompt: 'p', mode: 'directQuote' },
    ]);
    expect(scrapeOptionsSchema.parse({ formats: [{ type: 'query', prompt: 'p', mode: null }] }).formats).toEqual([
      { type: 'query', prompt: 'p', mode: 'freeform' },
    ]);
  });

  it('accepts json with a prompt, a schema or both, question and highlights', () => {
    const schema = { type: 'object', properties: { name: { type: 'string' } } };
    const parsed = scrapeOptionsSchema.parse({
      formats: [
        { type: 'json', schema, checkPromptInjection: true },
        { type: 'question', question: ' Who? ' },
        { type: 'highlights', query: 'pricing' },
      ],
    });
    expect(parsed.formats).toEqual([
      { type: 'json', schema, checkPromptInjection: true },
      { type: 'question', question: 'Who?' },
      { type: 'highlights', query: 'pricing' },
    ]);
    expect(scrapeOptionsSchema.parse({ formats: [{ type: 'json', prompt: 'the price' }] }).formats).toEqual([{ type: 'json', prompt: 'the price' }]);
  });

  it.each([
    [{ type: 'json' }, 'formats.0: The json format needs a prompt, a schema or both'],
    ['json', 'formats.0: The json format needs a prompt, a schema or both'],
    [{ type: 'json', schema: [] }, 'formats.0.schema: json.schema must be a JSON schema object'],
    [
      { type: 'json', schema: { type: 'nope' } },
      /^formats\.0\.schema: json\.schema is not a usable JSON schema: schema is invalid: data\/type must be equal to one of the allowed values/,
    ],
    [{ type: 'json', prompt: 'x'.repeat(10_001) }, /^formats\.0\.prompt: /],
    [{ type: 'question' }, 'formats.0.question: question.question is required'],
    [{ type: 'question', question: '  ' }, 'formats.0.question: question.question must not be empty'],
    ['highlights', 'formats.0.query: highlights.query is required'],
    [{ type: 'highlights', query: 'x'.repeat(10_001) }, 'formats.0.query: highlights.query must be at most 10000 characters'],
    [{ type: 'highlights', query: 'a', mode: 'directQuote' }, UNRECOGNIZED_KEY_MESSAGE],
    ['query', 'formats.0.prompt: query.prompt is required'],
    [{ type: 'query', prompt: '' }, 'formats.0.prompt: query.prompt must not be empty'],
    [{ type: 'query', prompt: 'x'.repeat(10_001) }, 'formats.0.prompt: query.prompt must be at most 10000 characters'],
    [{ type: 'query', prompt: 'a', mode: 'quote' }, 'formats.0.mode: query.mode is "freeform" or "directQuote"'],
    [{ type: 'query', prompt: 'a', directQuote: true }, UNRECOGNIZED_KEY_MESSAGE],
  ])('rejects format %# as it should', (format, message) => {
    expect(reject({ formats: [format] })).toMatch(message);
  });

  it('allows one of each model format', () => {
    expect(
      reject({
        formats: [
          { type: 'json', prompt: 'a' },
          { type: 'json', prompt: 'b' },
        ],
      }),
    ).toBe('formats: Only one json format is allowed');
    expect(
      reject({
        formats: [
          { type: 'query', prompt: 'a' },
          { type: 'query', prompt: 'b', mode: 'directQuote' },
        ],
      }),
    ).toBe('formats: Only one query format is allowed');
  });

  it('refuses question beside query: both fill answer', () => {
    expect(
      reject({
        formats: [
          { type: 'question', question: 'a' },
          { type: 'query', prompt: 'b' },
        ],
      }),
    ).toBe(`formats: ${QUESTION_AND_QUERY_MESSAGE}`);
  });
});

describe('json.schema depth', () => {
  it('refuses a schema nested too deeply for the validators, whatever its depth', () => {
    let schema: unknown = { type: 'string' };
    for (let i = 0; i < 20_000; i++) schema = { type: 'object', properties: { a: schema } };
    expect(reject({ formats: [{ type: 'json', schema }] })).toBe('formats.0.schema: json.schema may be nested at most 64 levels deep');
  });
});
