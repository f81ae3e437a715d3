// The JSON-LD of a page (<script type="application/ld+json">) as things. Only
// what schema.org data needs of JSON-LD is understood: @type, @id, @graph,
// @value, @list and @set; contexts are not expanded (schema.org's own prefixes
// are stripped from types and properties). A script that is too large, nests
// too deep or is not JSON is skipped: the nesting is measured by a linear scan
// before JSON.parse, so the conversion below, which recurses once per level,
// stays within MAX_JSON_LD_DEPTH frames.
import { addValue, newThing, type Thing, type ThingGraph, type Value } from './things.ts';
import { MAX_JSON_LD_DEPTH, MAX_JSON_LD_PAGE_CHARS, MAX_JSON_LD_SCRIPT_CHARS, type StructuredDataBudget } from './structured-data-budget.ts';

/** Whether `text` nests { and [ deeper than `limit` outside its strings (one pass, no parse). */
export function jsonNestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/** The JSON in a script as pages write it: inside an HTML comment or CDATA section, with raw line breaks in strings. */
function scriptJson(text: string): string {
  let json = text.trim();
  const open = ['<!--', '//<![CDATA[', '<![CDATA['].find((o) => json.startsWith(o));
  if (open) json = json.slice(open.length);
  const close = ['-->', '//]]>', ']]>'].find((c) => json.endsWith(c));
  if (close) json = json.slice(0, -close.length);
  // Control characters are invalid inside JSON strings and mere whitespace outside them.
  return json.replace(/[\u0000-\u001f]/g, ' ');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringsOf(value: unknown): string[] {
  return (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');
}

class Converter {
  constructor(
    private readonly graph: ThingGraph,
    private readonly budget: StructuredDataBudget,
  ) {}

  values(node: unknown): Value[] {
    if (typeof node === 'string') return [node];
    if (typeof node === 'number' || typeof node === 'boolean') return [String(node)];
    if (Array.isArray(node)) return node.flatMap((item) => this.values(item));
    if (!isRecord(node)) return [];
    if ('@value' in node) return this.values(node['@value']);
    if ('@list' in node) return this.values(node['@list']);
    if ('@set' in node) return this.values(node['@set']);
    const thing = this.thing(node);
    return thing ? [thing] : [];
  }

  thing(node: Record<string, unknown>): Thing | undefined {
    if (!this.budget.takeThing()) return undefined;
    const id = typeof node['@id'] === 'string' ? node['@id'] : undefined;
    const thing = newThing(stringsOf(node['@type']), id);
    for (const [key, raw] of Object.entries(node)) {
      if (key === '@graph') {
        for (const v of this.values(raw)) if (typeof v !== 'string') this.graph.roots.push(v);
        continue;
      }
      if (key.startsWith('@')) continue;
      for (const value of this.values(raw)) {
        if (!this.budget.takeValue()) return thing;
        addValue(thing, key, value);
      }
    }
    if (thing.id !== undefined && (thing.types.length > 0 || thing.props.size > 0) && !this.graph.byId.has(thing.id)) this.graph.byId.set(thing.id, thing);
    return thing;
  }
}

/** The things of the JSON-LD scripts given (the texts of the page's scripts, in document order). */
export function readJsonLd(scripts: Iterable<string>, budget: StructuredDataBudget): ThingGraph {
  const graph: ThingGraph = { roots: [], byId: new Map() };
  const converter = new Converter(graph, budget);
  for (const script of scripts) {
    // Once the page's allowance of things is spent, no further script can add one.
    if (!budget.hasThingsLeft()) break;
    if (script.length > MAX_JSON_LD_SCRIPT_CHARS) {
      budget.skipped.add(`a JSON-LD script larger than ${MAX_JSON_LD_SCRIPT_CHARS} characters was skipped`);
      continue;
    }
    if (script.length > budget.jsonLdChars) {
      budget.skipped.add(`JSON-LD scripts past the first ${MAX_JSON_LD_PAGE_CHARS} characters of them were skipped`);
      continue;
    }
    budget.jsonLdChars -= script.length;
    const text = scriptJson(script);
    if (jsonNestsDeeperThan(text, MAX_JSON_LD_DEPTH)) {
      budget.skipped.add(`a JSON-LD script nested more than ${MAX_JSON_LD_DEPTH} levels deep was skipped`);
      continue;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      budget.skipped.add('a JSON-LD script that is not valid JSON was skipped');
      continue;
    }
    for (const value of converter.values(parsed)) {
      // A bare {"@context", "@graph"} wrapper is no thing of its own.
      if (typeof value !== 'string' && (value.types.length > 0 || value.props.size > 0)) graph.roots.push(value);
    }
  }
  return graph;
}
