// The entities found without a model: EMAIL, PHONE, FINANCIAL (payment cards with
// a Luhn check, IBANs with their mod-97 check, US social security numbers) and
// SECRET (API keys and tokens of well-known shapes, private key blocks, URL
// passwords, high-entropy values of secret-named keys). Every detector is a
// hand-written scanner anchored on a fixed string or character ('@', a digit, a
// key prefix) that reads a bounded number of characters around each anchor: a
// page of n characters costs O(n) whatever it holds, and no regex engine
// backtracks over hostile text. Validation (checksums, plausible prefixes,
// placeholders, entropy) keeps look-alikes such as order numbers, dates,
// versions, IP addresses, image names (logo@2x.png) and `api_key=YOUR_KEY` out.
import type { PiiEntity, PiiSpan } from './pii-spans.ts';

/** How wide a net: `aggressive` also takes bare phone digits, shorter and lower-entropy secrets and long mixed tokens. */
export type PatternMode = 'accurate' | 'aggressive';

const isDigit = (c: number) => c >= 48 && c <= 57;
const isUpper = (c: number) => c >= 65 && c <= 90;
const isLower = (c: number) => c >= 97 && c <= 122;
const isAlnum = (c: number) => isDigit(c) || isUpper(c) || isLower(c);
/** A letter or digit of any script: what may not touch a match on either side. */
const WORDISH = /[\p{L}\p{N}]/u;
function wordAt(text: string, i: number): boolean {
  return i >= 0 && i < text.length && WORDISH.test(text[i]!);
}

// ---------------------------------------------------------------------------------------------
// EMAIL
// ---------------------------------------------------------------------------------------------

const isLocalChar = (c: number) => isAlnum(c) || c === 46 || c === 95 || c === 37 || c === 43 || c === 45; // . _ % + -
const isDomainChar = (c: number) => isAlnum(c) || c === 46 || c === 45;
/** Endings of file names written like addresses (retina images: logo@2x.png), never a top-level domain. */
const FILE_SUFFIXES = new Set(['png', 'jpg', 'jpeg', 'gif', 'svg', 'webp', 'avif', 'bmp', 'ico', 'css', 'js', 'mjs', 'json', 'map', 'woff', 'woff2', 'ttf']);

/** Whether `start` begins the password of a URL's user:password@ (a SECRET, found as such): scheme://user:|start. */
function inUrlUserinfo(text: string, start: number): boolean {
  if (text.charCodeAt(start - 1) !== 58) return false;
  let k = start - 2;
  while (k >= 0 && start - k < 256 && !/[\s/@]/.test(text[k]!)) k--;
  return text.startsWith('://', k - 2);
}

function findEmails(text: string, out: PiiSpan[]): void {
  for (let at = text.indexOf('@'); at !== -1; at = text.indexOf('@', at + 1)) {
    let start = at;
    while (start > 0 && at - start < 64 && isLocalChar(text.charCodeAt(start - 1))) start--;
    while (start < at && text.charCodeAt(start) === 46) start++;
    if (start === at || text.charCodeAt(at - 1) === 46 || inUrlUserinfo(text, start)) continue;
    let end = at + 1;
    while (end < text.length && end - at <= 253 && isDomainChar(text.charCodeAt(end))) end++;
    while (end > at + 1 && (text.charCodeAt(end - 1) === 46 || text.charCodeAt(end - 1) === 45)) end--;
    const labels = text.slice(at + 1, end).split('.');
    const tld = labels[labels.length - 1]!;
    if (labels.length < 2 || labels.some((l) => l.length === 0 || l.length > 63 || l.startsWith('-'))) continue;
    if (!/^[A-Za-z]{2,24}$/.test(tld) || FILE_SUFFIXES.has(tld.toLowerCase())) continue;
    out.push({ start, end, entity: 'EMAIL' });
  }
}

// ---------------------------------------------------------------------------------------------
// Digit runs: cards, phones, SSNs
// ---------------------------------------------------------------------------------------------

interface DigitGroup {
  start: number;
  end: number;
}

/** Digits joined by single separators (space, dot, dash, slash, parentheses), with a leading + or ( kept. */
interface DigitRun {
  start: number;
  end: number;
  digits: string;
  /** Digits per group, in order. */
  groups: number[];
  /** The separators between the groups, in order, joined. */
  separators: string;
  /** The same, one entry per gap between groups. */
  gaps: string[];
  plus: boolean;
  paren: boolean;
}

/** Space, dot, dash, slash, parentheses and the no-break space. */
const isRunSeparator = (c: number) => c === 32 || c === 46 || c === 45 || c === 40 || c === 41 || c === 47 || c === 160;
/** Longest run read: beyond the longest card (19) or phone (15) with separators. */
const MAX_RUN_CHARS = 48;

/** The digit groups of each run, every character read once; a run ends at MAX_RUN_CHARS or at two separators in a row. */
function digitGroupRuns(text: string): { opener: number; groups: DigitGroup[] }[] {
  const runs: { opener: number; groups: DigitGroup[] }[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    const opener = (c === 43 || c === 40) && isDigit(text.charCodeAt(i + 1));
    if (!isDigit(c) && !opener) {
      i++;
      continue;
    }
    const start = i;
    const groups: DigitGroup[] = [];
    let j = opener ? i + 1 : i;
    let gap = 0;
    while (j < text.length && j - start < MAX_RUN_CHARS) {
      const d = text.charCodeAt(j);
      if (isDigit(d)) {
        const last = groups[groups.length - 1];
        if (last && gap === 0) last.end = j + 1;
        else groups.push({ start: j, end: j + 1 });
        gap = 0;
        j++;
      } else if (isRunSeparator(d) && gap < 2) {
        gap++;
        j++;
      } else break;
    }
    // Fewer than seven digits make no card, SSN or phone number: most runs (years, prices) end here.
    let digits = 0;
    for (const g of groups) digits += g.end - g.start;
    if (digits >= 7) runs.push({ opener: opener ? start : -1, groups });
    i = groups.length > 0 ? groups[groups.length - 1]!.end : i + 1;
    // The rest of an over-long digit string is skipped, so that it is read once.
    while (i < text.length && isDigit(text.charCodeAt(i))) i++;
  }
  return runs;
}

/** The run made of groups `from`..`to` (inclusive). */
function subRun(text: string, run: { opener: number; groups: DigitGroup[] }, from: number, to: number): DigitRun {
  const gs = run.groups.slice(from, to + 1);
  const start = from === 0 && run.opener !== -1 ? run.opener : gs[0]!.start;
  const gaps = gs.slice(1).map((g, k) => text.slice(gs[k]!.end, g.start));
  return {
    start,
    end: gs[gs.length - 1]!.end,
    digits: gs.map((g) => text.slice(g.start, g.end)).join(''),
    groups: gs.map((g) => g.end - g.start),
    gaps,
    separators: gaps.join(''),
    plus: text.charCodeAt(start) === 43,
    paren: text.charCodeAt(start) === 40,
  };
}

function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** Issuer prefixes of the card networks (Visa, Mastercard, Amex, Discover, JCB, Diners, UnionPay, Maestro). */
function plausibleCard(digits: string): boolean {
  const two = Number(digits.slice(0, 2));
  const four = Number(digits.slice(0, 4));
  const n = digits.length;
  if (digits[0] === '4') return n === 13 || n === 16 || n === 19;
  if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) return n === 16;
  if (two === 34 || two === 37) return n === 15;
  if (digits.startsWith('6011') || two === 65 || (four >= 6440 && four <= 6499)) return n >= 16;
  if (four >= 3528 && four <= 3589) return n >= 16;
  if (two === 36 || two === 38 || (four >= 3000 && four <= 3059)) return n >= 14;
  if (two === 62) return n >= 16;
  if (two === 50 || (two >= 56 && two <= 69)) return n >= 12;
  return false;
}

function isCard(run: DigitRun): boolean {
  if (run.digits.length < 13 || run.digits.length > 19 || run.plus || run.paren) return false;
  // Written as one number or in groups with one kind of separator (spaces or dashes).
  const kinds = new Set(run.separators);
  if (kinds.size > 1 || [...kinds].some((k) => k !== ' ' && k !== '-')) return false;
  if (run.separators.length > 0 && run.separators.length !== run.groups.length - 1) return false;
  return plausibleCard(run.digits) && luhnValid(run.digits);
}

/** A US social security number, ddd-dd-dddd, with the numbers the SSA never issues left out. */
function isSsn(run: DigitRun): boolean {
  if (run.groups.join() !== '3,2,4' || run.separators !== '--') return false;
  const area = run.digits.slice(0, 3);
  return area !== '000' && area !== '666' && area[0] !== '9' && run.digits.slice(3, 5) !== '00' && run.digits.slice(5) !== '0000';
}

/** Dotted numbers of short groups (1.2.3.4, 192.168.100.200): versions and addresses, never split into a phone number. */
function versionOrAddress(text: string, run: { opener: number; groups: DigitGroup[] }): boolean {
  const g = run.groups;
  if (g.length < 3 || run.opener !== -1 || g.some((x) => x.end - x.start > 3)) return false;
  for (let k = 1; k < g.length; k++) if (text.slice(g[k - 1]!.end, g[k]!.start) !== '.') return false;
  return true;
}

/** Dates (2024-01-15, 15/01/2024), years (2019 2020), ZIP+4 codes and IPv4 addresses: digits with separators too. */
function notAPhone(run: DigitRun): boolean {
  const g = run.groups;
  if (g.length === 3 && ((g[0] === 4 && g[1]! <= 2 && g[2]! <= 2) || (g[0]! <= 2 && g[1]! <= 2 && g[2] === 4))) return true;
  if (g.every((n) => n === 4) && /^(?:(?:19|20)\d\d)+$/.test(run.digits)) return true;
  if (g.join() === '5,4' && run.separators === '-') return true;
  // Card-like groups of four, and SSN-shaped numbers that are not valid SSNs.
  if (g.length >= 3 && g.every((n) => n === 4)) return true;
  if (g.join() === '3,2,4' && run.separators === '--') return true;
  return g.length === 4 && run.separators === '...' && g.every((n) => n <= 3);
}

/**
 * A phone number is written with one kind of separator between its groups (555-123-4567, 555 123 4567);
 * an area code's parentheses and the country code's gap after a + do not count. Mixed ones are
 * numbers side by side (555-123-4567 4111), or no phone number at all (12/05 10:30).
 */
function oneKindOfSeparator(run: DigitRun): boolean {
  const kinds = new Set<string>();
  run.gaps.forEach((gap, k) => {
    if ((k === 0 && run.plus) || gap.includes('(') || gap.includes(')')) return;
    kinds.add(gap);
  });
  return kinds.size <= 1 && !kinds.has('/');
}

const PHONE_CONTEXT = /(?:tel|phone|call|mobile|cell|fax|whatsapp|contact)\W{0,3}$/i;

function isPhone(text: string, run: DigitRun, mode: PatternMode): boolean {
  const n = run.digits.length;
  if (n < 7 || n > 15 || notAPhone(run)) return false;
  if (!oneKindOfSeparator(run)) return false;
  if (run.plus) return n >= 8;
  const grouped = run.groups.length >= 2 && run.groups.every((g) => g >= 2 && g <= 5);
  const context = PHONE_CONTEXT.test(text.slice(Math.max(0, run.start - 16), run.start));
  if (grouped && (n >= 9 || (n >= 7 && (context || run.paren)))) return true;
  // One bare number is a phone number only next to a word that says so, or when casting the wide net.
  if (run.groups.length === 1 && n >= 10 && n <= 11) return context || mode === 'aggressive';
  return mode === 'aggressive' && grouped && n >= 7;
}

type NumberKind = 'FINANCIAL' | 'PHONE' | undefined;

function classify(text: string, run: DigitRun, entities: ReadonlySet<PiiEntity>, mode: PatternMode): NumberKind {
  // A number glued to letters or more digits is part of a word, an id or a longer number.
  if (wordAt(text, run.start - 1) || wordAt(text, run.end)) return undefined;
  if (entities.has('FINANCIAL') && (isCard(run) || isSsn(run))) return 'FINANCIAL';
  if (entities.has('PHONE') && isPhone(text, run, mode)) return 'PHONE';
  return undefined;
}

/** Numbers are written in groups of two or more digits; only the first may be shorter (+1 555 …, a country code). */
function plausibleGroups(groups: DigitGroup[], from: number, to: number): boolean {
  for (let k = from + 1; k <= to; k++) if (groups[k]!.end - groups[k]!.start < 2) return false;
  return true;
}

/** Most groups one number is written in (+1 (555) 123 45 67, a card in 4 or 5). */
const MAX_NUMBER_GROUPS = 7;

/**
 * Cards, SSNs and phone numbers among the digit runs. A run may be several numbers side by side
 * (a phone number, then a card number): from its first group on, the longest stretch of at most
 * MAX_NUMBER_GROUPS groups that is one is taken, then the rest is tried alike. Stretches with
 * too few or too many digits are never built, so a run costs a bounded number of tries.
 */
function findNumbers(text: string, entities: ReadonlySet<PiiEntity>, mode: PatternMode, out: PiiSpan[]): void {
  for (const run of digitGroupRuns(text)) {
    const n = run.groups.length;
    if (n === 0 || versionOrAddress(text, run)) continue;
    const before = [0];
    for (const g of run.groups) before.push(before[before.length - 1]! + g.end - g.start);
    let from = 0;
    while (from < n) {
      let taken = -1;
      for (let to = Math.min(n, from + MAX_NUMBER_GROUPS) - 1; to >= from && taken === -1; to--) {
        const digits = before[to + 1]! - before[from]!;
        if (digits < 7 || digits > 19 || !plausibleGroups(run.groups, from, to)) continue;
        const sub = subRun(text, run, from, to);
        const kind = classify(text, sub, entities, mode);
        if (kind) {
          out.push({ start: sub.start, end: sub.end, entity: kind });
          taken = to;
        }
      }
      from = taken === -1 ? from + 1 : taken + 1;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// IBAN
// ---------------------------------------------------------------------------------------------

/** IBAN lengths by country (ISO 13616 registry): a country's IBANs have exactly this many characters. */
const IBAN_LENGTHS: Readonly<Record<string, number>> = {
  AD: 24,
  AE: 23,
  AL: 28,
  AT: 20,
  AZ: 28,
  BA: 20,
  BE: 16,
  BG: 22,
  BH: 22,
  BR: 29,
  BY: 28,
  CH: 21,
  CR: 22,
  CY: 28,
  CZ: 24,
  DE: 22,
  DK: 18,
  DO: 28,
  EE: 20,
  EG: 29,
  ES: 24,
  FI: 18,
  FO: 18,
  FR: 27,
  GB: 22,
  GE: 22,
  GI: 23,
  GL: 18,
  GR: 27,
  GT: 28,
  HR: 21,
  HU: 28,
  IE: 22,
  IL: 23,
  IQ: 23,
  IS: 26,
  IT: 27,
  JO: 30,
  KW: 30,
  KZ: 20,
  LB: 28,
  LC: 32,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  MC: 27,
  MD: 24,
  ME: 22,
  MK: 19,
  MR: 27,
  MT: 31,
  MU: 30,
  NL: 18,
  NO: 15,
  PK: 24,
  PL: 28,
  PS: 29,
  PT: 25,
  QA: 29,
  RO: 24,
  RS: 22,
  SA: 24,
  SC: 31,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
  ST: 25,
  SV: 28,
  TL: 23,
  TN: 24,
  TR: 26,
  UA: 29,
  VA: 22,
  VG: 24,
  XK: 20,
};

/** IBAN_LENGTHS by the two capitals' codes, so the scan allocates nothing for text that is no IBAN. */
const IBAN_LENGTH_BY_CODE = new Uint8Array(26 * 26);
for (const [country, length] of Object.entries(IBAN_LENGTHS)) IBAN_LENGTH_BY_CODE[(country.charCodeAt(0) - 65) * 26 + country.charCodeAt(1) - 65] = length;

/** The ISO 7064 mod-97 check: the first four characters moved to the end, letters as 10..35, the number mod 97 is 1. */
export function ibanValid(iban: string): boolean {
  if (IBAN_LENGTHS[iban.slice(0, 2)] !== iban.length) return false;
  let rest = 0;
  for (const ch of iban.slice(4) + iban.slice(0, 4)) {
    const c = ch.charCodeAt(0);
    if (isDigit(c)) rest = (rest * 10 + c - 48) % 97;
    else if (isUpper(c)) rest = (rest * 100 + c - 55) % 97;
    else return false;
  }
  return rest === 1;
}

/** IBANs, compact or printed in groups of four: two capitals, two check digits, then exactly the country's length. */
function findIbans(text: string, out: PiiSpan[]): void {
  for (let i = 0; i + 4 < text.length; i++) {
    if (!isUpper(text.charCodeAt(i)) || !isUpper(text.charCodeAt(i + 1)) || !isDigit(text.charCodeAt(i + 2)) || !isDigit(text.charCodeAt(i + 3))) continue;
    const length = IBAN_LENGTH_BY_CODE[(text.charCodeAt(i) - 65) * 26 + text.charCodeAt(i + 1) - 65]!;
    if (length === 0 || wordAt(text, i - 1)) continue;
    let compact = '';
    let j = i;
    while (j < text.length && compact.length < length) {
      const c = text.charCodeAt(j);
      if (isDigit(c) || isUpper(c)) compact += text[j++];
      else if (c === 32 && compact.length % 4 === 0 && compact.length > 0) j++;
      else break;
    }
    if (compact.length !== length || wordAt(text, j) || !ibanValid(compact)) continue;
    out.push({ start: i, end: j, entity: 'FINANCIAL' });
    i = j - 1;
  }
}

// ---------------------------------------------------------------------------------------------
// SECRET
// ---------------------------------------------------------------------------------------------

interface KeyShape {
  prefix: string;
  chars: (c: number) => boolean;
  min: number;
  max: number;
}

const b64url = (c: number) => isAlnum(c) || c === 45 || c === 95;
const upperDigit = (c: number) => isUpper(c) || isDigit(c);
const hexLower = (c: number) => isDigit(c) || (c >= 97 && c <= 102);
const alnumUnderscore = (c: number) => isAlnum(c) || c === 95;
const slackChars = (c: number) => isAlnum(c) || c === 45;

/** Tokens whose shape says what they are; `min`/`max` count the characters after the prefix. */
const KEY_SHAPES: KeyShape[] = [
  ...['AKIA', 'ASIA', 'AGPA', 'AIDA', 'AROA'].map((prefix) => ({ prefix, chars: upperDigit, min: 16, max: 16 })),
  ...['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'].map((prefix) => ({ prefix, chars: isAlnum, min: 36, max: 255 })),
  { prefix: 'github_pat_', chars: alnumUnderscore, min: 22, max: 255 },
  { prefix: 'glpat-', chars: b64url, min: 20, max: 255 },
  ...['xoxb-', 'xoxp-', 'xoxa-', 'xoxr-', 'xoxs-', 'xapp-'].map((prefix) => ({ prefix, chars: slackChars, min: 10, max: 250 })),
  ...['sk_live_', 'sk_test_', 'rk_live_', 'rk_test_', 'whsec_'].map((prefix) => ({ prefix, chars: isAlnum, min: 16, max: 247 })),
  { prefix: 'AIza', chars: b64url, min: 35, max: 35 },
  { prefix: 'sk-ant-', chars: b64url, min: 20, max: 255 },
  { prefix: 'sk-proj-', chars: b64url, min: 20, max: 255 },
  { prefix: 'sk-', chars: isAlnum, min: 32, max: 255 },
  { prefix: 'fc-', chars: hexLower, min: 32, max: 32 },
  { prefix: 'npm_', chars: isAlnum, min: 36, max: 36 },
  { prefix: 'hf_', chars: isAlnum, min: 30, max: 40 },
  { prefix: 'SG.', chars: (c) => b64url(c) || c === 46, min: 60, max: 80 },
];

function findShapedKeys(text: string, out: PiiSpan[]): void {
  for (const shape of KEY_SHAPES) {
    for (let at = text.indexOf(shape.prefix); at !== -1; at = text.indexOf(shape.prefix, at + 1)) {
      if (at > 0 && (isAlnum(text.charCodeAt(at - 1)) || text.charCodeAt(at - 1) === 95)) continue;
      let end = at + shape.prefix.length;
      while (end < text.length && end - at - shape.prefix.length < shape.max && shape.chars(text.charCodeAt(end))) end++;
      const body = end - at - shape.prefix.length;
      if (body < shape.min || (end < text.length && shape.chars(text.charCodeAt(end)))) continue;
      out.push({ start: at, end, entity: 'SECRET' });
      at = end - 1;
    }
  }
}

/** JSON web tokens: three base64url parts, the first two JSON objects ("eyJ"). */
function findJwts(text: string, out: PiiSpan[]): void {
  for (let at = text.indexOf('eyJ'); at !== -1; at = text.indexOf('eyJ', at + 1)) {
    if (at > 0 && b64url(text.charCodeAt(at - 1))) continue;
    let end = at;
    const parts = [0];
    while (end < text.length && end - at < 8192) {
      const c = text.charCodeAt(end);
      if (b64url(c)) parts[parts.length - 1]!++;
      else if (c === 46 && parts.length < 3) parts.push(0);
      else break;
      end++;
    }
    if (parts.length === 3 && parts.every((p) => p >= 10) && text.startsWith('eyJ', at + parts[0]! + 1)) {
      out.push({ start: at, end, entity: 'SECRET' });
      at = end - 1;
    }
  }
}

/** Longest private key block read; a block without its END line is redacted up to here. */
const MAX_KEY_BLOCK = 20_000;

function findPrivateKeys(text: string, out: PiiSpan[]): void {
  for (let at = text.indexOf('-----BEGIN '); at !== -1; at = text.indexOf('-----BEGIN ', at + 1)) {
    const close = text.indexOf('-----', at + 11);
    if (close === -1 || close - at > 60) continue;
    const label = text.slice(at + 11, close);
    if (!label.endsWith('PRIVATE KEY') && label !== 'PGP PRIVATE KEY BLOCK') continue;
    const footer = `-----END ${label}-----`;
    const found = text.indexOf(footer, close);
    let end = found !== -1 && found - at <= MAX_KEY_BLOCK ? found + footer.length : -1;
    if (end === -1) {
      // No END line within reach: everything that looks like the key's body goes.
      end = close + 5;
      while (end < text.length && end - at < MAX_KEY_BLOCK && /[A-Za-z0-9+/=\s:,-]/.test(text[end]!)) end++;
    }
    out.push({ start: at, end, entity: 'SECRET' });
    at = end - 1;
  }
}

const tokenChar = (c: number) => isAlnum(c) || '-._~+/='.includes(String.fromCharCode(c));

/** `Bearer <token>` and the password of `scheme://user:password@host`. */
function findCredentials(text: string, lower: string, out: PiiSpan[]): void {
  for (let at = lower.indexOf('bearer '); at !== -1; at = lower.indexOf('bearer ', at + 1)) {
    const start = at + 7;
    let end = start;
    while (end < text.length && end - start < 4096 && tokenChar(text.charCodeAt(end))) end++;
    if (end - start >= 20) out.push({ start, end, entity: 'SECRET' });
  }
  for (let at = text.indexOf('://'); at !== -1; at = text.indexOf('://', at + 1)) {
    let end = at + 3;
    let colon = -1;
    while (end < text.length && end - at < 512) {
      const c = text[end]!;
      if (c === '@' || c === '/' || c === '?' || c === '#' || /\s/.test(c)) break;
      if (c === ':' && colon === -1) colon = end;
      end++;
    }
    if (text[end] === '@' && colon !== -1 && end - colon > 1) out.push({ start: colon + 1, end, entity: 'SECRET' });
  }
}

/** Key names whose value is a secret; those of the first group are secrets whatever the value looks like. */
const PASSWORD_KEYS = ['password', 'passwd', 'passphrase', 'pwd'];
const SECRET_KEYS = ['secret', 'token', 'api_key', 'apikey', 'api-key', 'access_key', 'accesskey', 'private_key', 'client_secret', 'auth_key', 'credential'];
/** Values that stand in for a secret in documentation (`YOUR_API_KEY`, `<token>`, `${TOKEN}`, `********`). */
const PLACEHOLDER =
  /^(?:null|undefined|true|false|none|string|number|boolean|required|optional)$|your|xxxx|\*\*\*|\.\.\.|example|placeholder|redacted|<|>|\{\{|\$\{|^process\.env|^os\.environ/i;
const CONSTANT_NAME = /^[A-Z][A-Z0-9_]*$/;

export function shannonEntropy(value: string): number {
  const counts = new Map<string, number>();
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) bits -= (n / value.length) * Math.log2(n / value.length);
  return bits;
}

const valueChar = (c: number) =>
  c > 32 && c !== 34 && c !== 39 && c !== 60 && c !== 62 && c !== 38 && c !== 44 && c !== 59 && c !== 96 && c !== 41 && c !== 125;

/** The value of `<key> = value` / `"<key>": "value"` for secret-named keys, when it looks like a secret. */
function findKeyValues(text: string, lower: string, mode: PatternMode, out: PiiSpan[]): void {
  const minLength = mode === 'aggressive' ? 6 : 8;
  const minEntropy = mode === 'aggressive' ? 2.5 : 3.0;
  for (const key of [...PASSWORD_KEYS, ...SECRET_KEYS]) {
    const password = PASSWORD_KEYS.includes(key);
    for (let at = lower.indexOf(key); at !== -1; at = lower.indexOf(key, at + 1)) {
      let j = at + key.length;
      // The rest of the key's name (db_password_hash, tokenSecret), at most 40 characters.
      while (j < text.length && j - at < 40 && (alnumUnderscore(text.charCodeAt(j)) || text.charCodeAt(j) === 45)) j++;
      if (text[j] === '"' || text[j] === "'") j++;
      let spaces = 0;
      while (text[j] === ' ' && spaces++ < 3) j++;
      if (text[j] !== '=' && text[j] !== ':') continue;
      j++;
      if (text[j] === '>') j++;
      spaces = 0;
      while (text[j] === ' ' && spaces++ < 3) j++;
      if (text[j] === '"' || text[j] === "'") j++;
      const start = j;
      while (j < text.length && j - start < 256 && valueChar(text.charCodeAt(j))) j++;
      const value = text.slice(start, j);
      if (value.length < (password ? 6 : minLength) || PLACEHOLDER.test(value) || CONSTANT_NAME.test(value) || /^(.)\1*$/.test(value)) continue;
      if (!password && shannonEntropy(value) < minEntropy) continue;
      if (!password && /^[a-z]+$/i.test(value)) continue;
      out.push({ start, end: j, entity: 'SECRET' });
      at = j - 1;
    }
  }
}

/** aggressive: a long token mixing upper case, lower case and digits with high entropy, named by nothing. */
function findLooseTokens(text: string, out: PiiSpan[]): void {
  let i = 0;
  while (i < text.length) {
    if (!b64url(text.charCodeAt(i))) {
      i++;
      continue;
    }
    const start = i;
    while (i < text.length && i - start < 512 && (b64url(text.charCodeAt(i)) || text.charCodeAt(i) === 43 || text.charCodeAt(i) === 47)) i++;
    const token = i - start >= 32 ? text.slice(start, i) : '';
    if (token.length >= 32 && /[A-Z]/.test(token) && /[a-z]/.test(token) && /\d/.test(token) && shannonEntropy(token) >= 4.2) {
      out.push({ start, end: i, entity: 'SECRET' });
    }
    while (i < text.length && b64url(text.charCodeAt(i))) i++;
  }
}

/** Upper-case ASCII letters lowered, nothing else: the same length and offsets as `text`. */
function asciiLower(text: string): string {
  const lower = text.toLowerCase();
  // A few characters lower to two (U+0130 to "i̇"): then only ASCII letters are lowered.
  return lower.length === text.length ? lower : text.replace(/[A-Z]+/g, (s) => s.toLowerCase());
}

/** Every span of the requested pattern entities (EMAIL, PHONE, FINANCIAL, SECRET) in `text`. */
export function findPatternSpans(text: string, entities: ReadonlySet<PiiEntity>, mode: PatternMode): PiiSpan[] {
  const out: PiiSpan[] = [];
  if (entities.has('SECRET')) {
    findPrivateKeys(text, out);
    findShapedKeys(text, out);
    findJwts(text, out);
    const lower = asciiLower(text);
    findCredentials(text, lower, out);
    findKeyValues(text, lower, mode, out);
    if (mode === 'aggressive') findLooseTokens(text, out);
  }
  if (entities.has('EMAIL')) findEmails(text, out);
  if (entities.has('FINANCIAL')) findIbans(text, out);
  if (entities.has('FINANCIAL') || entities.has('PHONE')) findNumbers(text, entities, mode, out);
  return out;
}
