// The query text's grammar: words, "exact phrases", and operators, each of which
// may be negated with a leading minus. Positions are 1-based character offsets
// into the query, so a 400 can say where the problem is.
import { DomainError } from '../../../platform/domain-error.ts';
import type { Dimensions, Included, SearchQuery } from '../search-query.ts';

/** Operators of the spec, as written before the colon. */
export const OPERATORS = ['site', 'filetype', 'inurl', 'allinurl', 'intitle', 'allintitle', 'related', 'imagesize', 'larger'] as const;
export type Operator = (typeof OPERATORS)[number];

/** At most this many terms and operators in one query (each becomes part of one SQL statement). */
export const MAX_QUERY_PARTS = 64;

/** The parts of a SearchQuery the query text gives. */
export type ParsedText = Pick<SearchQuery, 'terms' | 'sites' | 'fileTypes' | 'inUrl' | 'inTitle' | 'related' | 'imageSize' | 'largerThan'>;

function malformed(position: number, what: string): DomainError {
  return new DomainError('invalid', `Malformed query at position ${position}: ${what}`, 'BAD_REQUEST');
}

interface Token {
  negated: boolean;
  operator?: Operator;
  value: string;
  quoted: boolean;
  /** Where the token starts (its minus, if any). */
  position: number;
}

const HOST = /^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,62})(?:\.[a-z0-9_-]{1,63})*\.?$/;

/** A site: value: a host (scheme and "www." kept as written, lower-cased), optionally with a path prefix. */
export function normalizeSite(raw: string, position: number): string {
  const text = raw
    .trim()
    .toLowerCase()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, '');
  const slash = text.indexOf('/');
  const host = (slash === -1 ? text : text.slice(0, slash)).replace(/\.$/, '');
  const path = slash === -1 ? '' : text.slice(slash).replace(/\/+$/, '');
  if (!HOST.test(host)) throw malformed(position, `"${raw}" is not a host name`);
  return `${host}${path}`;
}

function dimensions(value: string, position: number, operator: string): Dimensions {
  const m = /^(\d{1,5})\s*[x×]\s*(\d{1,5})$/i.exec(value.trim());
  if (!m || Number(m[1]) < 1 || Number(m[2]) < 1) throw malformed(position, `${operator}: needs WIDTHxHEIGHT in pixels, e.g. ${operator}:1920x1080`);
  return { width: Number(m[1]), height: Number(m[2]) };
}

function tokenize(query: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const at = () => query[i];
  while (i < query.length) {
    if (/\s/.test(at())) {
      i++;
      continue;
    }
    const position = i + 1;
    let negated = false;
    if (at() === '-' && i + 1 < query.length && !/\s/.test(query[i + 1])) {
      negated = true;
      i++;
    }
    let operator: Operator | undefined;
    const op = /^([a-z]+):/i.exec(query.slice(i));
    if (op && (OPERATORS as readonly string[]).includes(op[1].toLowerCase())) {
      operator = op[1].toLowerCase() as Operator;
      i += op[0].length;
    }
    let value: string;
    let quoted = false;
    if (at() === '"') {
      const close = query.indexOf('"', i + 1);
      if (close === -1) throw malformed(i + 1, 'a quotation mark is not closed');
      value = query.slice(i + 1, close);
      quoted = true;
      i = close + 1;
    } else {
      const start = i;
      while (i < query.length && !/\s/.test(at())) {
        if (at() === '"') throw malformed(i + 1, 'a quotation mark inside a word; put the whole phrase in quotes');
        i++;
      }
      value = query.slice(start, i);
    }
    if (operator && value.trim() === '' && operator !== 'allinurl' && operator !== 'allintitle') throw malformed(position, `${operator}: has no value`);
    if (!operator && (value.trim() === '' || (!quoted && value === '-'))) {
      if (quoted) throw malformed(position, 'an empty phrase');
      continue;
    }
    tokens.push({ negated, operator, value, quoted, position });
    if (tokens.length > MAX_QUERY_PARTS) throw malformed(position, `more than ${MAX_QUERY_PARTS} terms and operators`);
  }
  return tokens;
}

const empty = <T>(): Included<T> => ({ include: [], exclude: [] });

/** The query text as terms and operators. */
export function parseQueryText(raw: string): ParsedText {
  // PostgreSQL text cannot hold NUL; other control characters are whitespace to a reader.
  const query = raw.replace(/[\u0000-\u001f\u007f]/g, ' ');
  const parsed: ParsedText = { terms: empty(), sites: empty(), fileTypes: empty(), inUrl: empty(), inTitle: empty() };
  const side = <T>(list: Included<T>, negated: boolean) => (negated ? list.exclude : list.include);
  const tokens = tokenize(query);
  for (let t = 0; t < tokens.length; t++) {
    const token = tokens[t];
    const { negated, operator, value, position } = token;
    switch (operator) {
      case undefined:
        side(parsed.terms, negated).push({ kind: token.quoted ? 'phrase' : 'word', text: value });
        break;
      case 'site':
        side(parsed.sites, negated).push(normalizeSite(value, position));
        break;
      case 'filetype': {
        const ext = value.trim().toLowerCase().replace(/^\./, '');
        if (!/^[a-z0-9]{1,10}$/.test(ext)) throw malformed(position, `filetype: needs an extension such as pdf, got "${value}"`);
        side(parsed.fileTypes, negated).push(ext);
        break;
      }
      case 'inurl':
      case 'intitle':
        side(operator === 'inurl' ? parsed.inUrl : parsed.inTitle, negated).push(value.toLowerCase());
        break;
      case 'allinurl':
      case 'allintitle': {
        // Google's reading: every word after the operator belongs to it.
        if (negated) throw malformed(position, `${operator}: cannot be negated; use -${operator.slice(5)}: per word`);
        const words = [value, ...tokens.slice(t + 1).map((rest) => (rest.negated ? `-${rest.value}` : rest.value))].filter((w) => w.trim() !== '');
        if (words.length === 0) throw malformed(position, `${operator}: has no words`);
        const target = operator === 'allinurl' ? parsed.inUrl : parsed.inTitle;
        for (const word of words) (word.startsWith('-') ? target.exclude : target.include).push(word.replace(/^-/, '').toLowerCase());
        t = tokens.length;
        break;
      }
      case 'related':
        if (negated) throw malformed(position, 'related: cannot be negated');
        if (parsed.related) throw malformed(position, 'only one related: per query');
        parsed.related = normalizeSite(value, position).split('/')[0];
        break;
      case 'imagesize':
        if (negated) throw malformed(position, 'imagesize: cannot be negated');
        parsed.imageSize = dimensions(value, position, 'imagesize');
        break;
      case 'larger':
        if (negated) throw malformed(position, 'larger: cannot be negated');
        parsed.largerThan = dimensions(value, position, 'larger');
        break;
    }
  }
  return parsed;
}
