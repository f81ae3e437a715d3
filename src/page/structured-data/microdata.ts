// Microdata (itemscope, itemtype, itemprop, itemid) and RDFa Lite (typeof,
// property, resource) of a parsed page as things. One iterative walk of the
// tree (pages nest deep), each element visited once; an element's text, when
// it is a property's value, is read through a shared node allowance, so nested
// properties cannot make the walk quadratic. itemref is not followed.
import { addValue, MAX_TEXT_CHARS, newThing, type Thing, type ThingGraph, type Value } from './things.ts';
import type { StructuredDataBudget } from './structured-data-budget.ts';

/** Elements whose property value is a URL, and the attribute that holds it (the microdata spec's list). */
const URL_ATTRIBUTE = new Map([
  ['A', 'href'],
  ['AREA', 'href'],
  ['LINK', 'href'],
  ['IMG', 'src'],
  ['AUDIO', 'src'],
  ['VIDEO', 'src'],
  ['SOURCE', 'src'],
  ['EMBED', 'src'],
  ['IFRAME', 'src'],
  ['TRACK', 'src'],
  ['OBJECT', 'data'],
]);

/** Never shown as text, never holding items. */
const SKIPPED = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE']);

function tokens(value: string | null): string[] {
  return value === null ? [] : value.split(/\s+/).filter((t) => t !== '');
}

/** An element's text, whitespace squashed, at most MAX_TEXT_CHARS, its nodes taken from the page's allowance. */
function boundedText(root: Element, budget: StructuredDataBudget): string {
  let text = '';
  const stack: Node[] = [root];
  while (stack.length > 0 && text.length < MAX_TEXT_CHARS) {
    if (budget.textNodes <= 0) {
      budget.skipped.add('the text of some microdata properties was not read (too many elements)');
      break;
    }
    budget.textNodes--;
    const node = stack.pop()!;
    if (node.nodeType === 3) text += node.textContent ?? '';
    else if (node.nodeType === 1 && !SKIPPED.has((node as Element).tagName)) {
      const children = node.childNodes;
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
    }
  }
  return text.replace(/\s+/g, ' ').trim().slice(0, MAX_TEXT_CHARS);
}

function propertyValue(element: Element, baseUrl: string, budget: StructuredDataBudget): string {
  const content = element.getAttribute('content');
  if (content !== null) return content;
  const urlAttribute = URL_ATTRIBUTE.get(element.tagName);
  if (urlAttribute) {
    const raw = element.getAttribute(urlAttribute) ?? '';
    return URL.parse(raw, baseUrl)?.href ?? raw;
  }
  if (element.tagName === 'META') return '';
  if (element.tagName === 'DATA' || element.tagName === 'METER') return element.getAttribute('value') ?? '';
  if (element.tagName === 'TIME' && element.hasAttribute('datetime')) return element.getAttribute('datetime') ?? '';
  return boundedText(element, budget);
}

/** Whether the page has any microdata or RDFa item (a quick look before the walk). */
export function hasMicrodata(document: Document): boolean {
  return document.querySelector('[itemscope], [typeof]') !== null;
}

/** The items of the page under `root`; URLs resolved against `baseUrl`. */
export function readMicrodata(root: Element, baseUrl: string, budget: StructuredDataBudget): ThingGraph {
  const graph: ThingGraph = { roots: [], byId: new Map() };
  // Each entry: an element and the item its properties belong to (none outside every item).
  const stack: [Element, Thing | undefined][] = [[root, undefined]];
  while (stack.length > 0) {
    const [element, owner] = stack.pop()!;
    if (SKIPPED.has(element.tagName)) continue;
    const startsItem = element.hasAttribute('itemscope') || element.hasAttribute('typeof');
    let item: Thing | undefined;
    if (startsItem && budget.takeThing()) {
      const types = tokens(element.getAttribute('itemtype') ?? element.getAttribute('typeof'));
      item = newThing(types, element.getAttribute('itemid') ?? element.getAttribute('resource') ?? undefined);
      if (item.id !== undefined && !graph.byId.has(item.id)) graph.byId.set(item.id, item);
    }
    const names = tokens(element.getAttribute('itemprop') ?? element.getAttribute('property'));
    if (names.length > 0 && owner) {
      const value: Value = item ?? propertyValue(element, baseUrl, budget);
      for (const name of names) if (budget.takeValue()) addValue(owner, name, value);
    } else if (item) graph.roots.push(item);
    // An item past the allowance owns its properties all the same: they must not land on the item around it.
    const childOwner = startsItem ? item : owner;
    const children = element.children;
    for (let i = children.length - 1; i >= 0; i--) stack.push([children[i]!, childOwner]);
  }
  return graph;
}
