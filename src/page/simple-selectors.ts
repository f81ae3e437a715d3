// Selector lists whose every entry is one tag name, one #id or one .class,
// matched by a single walk of the tree instead of the CSS engine: linkedom's
// engine reads an element's whole class list once per class selector, which for
// onlyMainContent's 41 selectors took 263 µs of an ordinary page's conversion,
// against about 10 µs here.

export interface SimpleSelectors {
  tags: ReadonlySet<string>;
  ids: ReadonlySet<string>;
  classes: ReadonlySet<string>;
}

const SIMPLE = /^([#.]?)(-?[A-Za-z_][\w-]*)$/;
const ASCII_WHITESPACE = /[\t\n\f\r ]+/;
const SHOW_ELEMENT = 1;

/** Throws on an entry that is not a bare tag, #id or .class: the lists are the code's own, not users'. */
export function simpleSelectors(selectors: readonly string[]): SimpleSelectors {
  const tags = new Set<string>();
  const ids = new Set<string>();
  const classes = new Set<string>();
  for (const selector of selectors) {
    const [, kind, name] = SIMPLE.exec(selector) ?? [];
    if (name === undefined) throw new Error(`not a simple selector: ${selector}`);
    if (kind === '#') ids.add(name);
    else if (kind === '.') classes.add(name);
    else tags.add(name.toLowerCase());
  }
  return { tags, ids, classes };
}

function matchesSimple(element: Element, selectors: SimpleSelectors): boolean {
  if (selectors.tags.has(element.localName.toLowerCase())) return true;
  if (selectors.ids.size > 0) {
    const id = element.getAttribute('id');
    if (id !== null && selectors.ids.has(id)) return true;
  }
  if (selectors.classes.size > 0) {
    const names = element.getAttribute('class');
    if (names) for (const name of names.split(ASCII_WHITESPACE)) if (selectors.classes.has(name)) return true;
  }
  return false;
}

/** The document's elements that match, in document order (as querySelectorAll would list them). */
export function elementsMatching(document: Document, selectors: SimpleSelectors): Element[] {
  const found: Element[] = [];
  const walker = document.createTreeWalker(document.documentElement, SHOW_ELEMENT);
  for (let node = walker.currentNode; node; node = walker.nextNode()!) {
    if (matchesSimple(node as Element, selectors)) found.push(node as Element);
  }
  return found;
}
