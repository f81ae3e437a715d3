// A page's schema.org data in one shape, whichever syntax wrote it (JSON-LD,
// microdata, RDFa Lite): things with types and properties whose values are
// text or other things. The product and menu formats read this shape only.

/** Text, or a nested thing (an id-only thing is a reference, resolved through the graph). */
export type Value = string | Thing;

export interface Thing {
  /** schema.org terms by their local name ("Product"); other vocabularies' types by their full IRI. */
  types: string[];
  /** JSON-LD's @id, microdata's itemid, RDFa's resource. */
  id?: string;
  /** A Map: property names come from the page, and "__proto__" must stay a name like any other. */
  props: Map<string, Value[]>;
}

/** The things of one syntax: those not nested in another, and every thing that has an id. */
export interface ThingGraph {
  roots: Thing[];
  byId: Map<string, Thing>;
}

const SCHEMA_PREFIXES = ['https://schema.org/', 'http://schema.org/', 'schema:'];

/** A schema.org IRI or prefixed name as its local name ("https://schema.org/InStock" -> "InStock"); anything else unchanged. */
export function schemaTerm(iri: string): string {
  const trimmed = iri.trim();
  for (const prefix of SCHEMA_PREFIXES) if (trimmed.startsWith(prefix)) return trimmed.slice(prefix.length);
  return trimmed;
}

export function newThing(types: string[], id?: string): Thing {
  return { types: types.map(schemaTerm).filter((t) => t !== ''), ...(id !== undefined && id !== '' && { id }), props: new Map() };
}

export function addValue(thing: Thing, prop: string, value: Value): void {
  const name = schemaTerm(prop);
  const list = thing.props.get(name);
  if (list) list.push(value);
  else thing.props.set(name, [value]);
}

export function isA(thing: Thing, types: ReadonlySet<string>): boolean {
  return thing.types.some((t) => types.has(t));
}

/** A thing that only names another by its id. */
function isReference(thing: Thing): boolean {
  return thing.id !== undefined && thing.types.length === 0 && thing.props.size === 0;
}

export function resolve(graph: ThingGraph, thing: Thing): Thing {
  return isReference(thing) ? (graph.byId.get(thing.id!) ?? thing) : thing;
}

export function valuesOf(thing: Thing, prop: string): Value[] {
  return thing.props.get(prop) ?? [];
}

/** The things a property names, references resolved. */
export function thingsOf(graph: ThingGraph, thing: Thing, prop: string): Thing[] {
  return valuesOf(thing, prop)
    .filter((v): v is Thing => typeof v !== 'string')
    .map((v) => resolve(graph, v));
}

/** Whitespace squashed; undefined when nothing is left. */
export function cleanText(text: string | undefined, maxChars = MAX_TEXT_CHARS): string | undefined {
  const clean = text?.replace(/\s+/g, ' ').trim();
  if (!clean) return undefined;
  return clean.length > maxChars ? clean.slice(0, maxChars) : clean;
}

/** Longest text a profile field keeps (a description is cut there). */
export const MAX_TEXT_CHARS = 5000;

/** A property's first text: a string value, or the name of a thing it names (a Brand, a Person). */
export function textOf(graph: ThingGraph, thing: Thing, prop: string): string | undefined {
  for (const value of valuesOf(thing, prop)) {
    // One level only: names that are things again (or references back) are not followed.
    const texts = typeof value === 'string' ? [value] : valuesOf(resolve(graph, value), 'name').filter((v) => typeof v === 'string');
    for (const text of texts) {
      const clean = cleanText(text);
      if (clean !== undefined) return clean;
    }
  }
  return undefined;
}

/** Every string value of a property, and the @id of every thing it names (enumeration members such as https://schema.org/InStock). */
export function termsOf(thing: Thing, prop: string): string[] {
  return valuesOf(thing, prop)
    .map((v) => (typeof v === 'string' ? v : (v.id ?? '')))
    .map(schemaTerm)
    .filter((t) => t !== '');
}

/**
 * Things of the given types anywhere in the graph, roots first, then nested ones level by level; each
 * once. Properties in `skip` are not entered (a listing's items, related products).
 */
export function findThings(graph: ThingGraph, types: ReadonlySet<string>, skip: ReadonlySet<string> = new Set()): Thing[] {
  const found: Thing[] = [];
  const seen = new Set<Thing>();
  // Iterative, each thing visited once: references can form cycles.
  const queue: Thing[] = [...graph.roots];
  for (let i = 0; i < queue.length; i++) {
    const thing = resolve(graph, queue[i]!);
    if (seen.has(thing)) continue;
    seen.add(thing);
    if (isA(thing, types)) found.push(thing);
    for (const [prop, values] of thing.props) {
      if (skip.has(prop)) continue;
      for (const v of values) if (typeof v !== 'string') queue.push(v);
    }
  }
  return found;
}
