import { parseHTML } from 'linkedom';

const DOCUMENT_TYPE_NODE = 10;

/**
 * HTMLTableElement.rows, which linkedom lacks and turndown's GFM table rule reads: the rows of the
 * table's thead sections, then those directly in it or in its tbody sections, then its tfoot's.
 */
function tableRows(this: Element): Element[] {
  const rows: Record<'THEAD' | 'BODY' | 'TFOOT', Element[]> = { THEAD: [], BODY: [], TFOOT: [] };
  for (const child of this.children) {
    if (child.tagName === 'TR') rows.BODY.push(child);
    else if (child.tagName === 'THEAD' || child.tagName === 'TBODY' || child.tagName === 'TFOOT') {
      const section = child.tagName === 'TBODY' ? rows.BODY : rows[child.tagName];
      for (const row of child.children) if (row.tagName === 'TR') section.push(row);
    }
  }
  return [...rows.THEAD, ...rows.BODY, ...rows.TFOOT];
}

const tablePrototype = Object.getPrototypeOf(parseHTML('<table></table>').document.createElement('table'));
if (!('rows' in tablePrototype)) Object.defineProperty(tablePrototype, 'rows', { get: tableRows, configurable: true });

/**
 * Parses HTML into a document that always has an <html> root holding one <body>.
 *
 * linkedom builds the tree exactly as written (htmlparser2, not the HTML5 tree builder), so
 * fragments, pages without <html> or <body>, and empty input would leave documentElement null
 * or the content outside <body>; its head/body getters would then throw or invent an empty body.
 */
export function parseHtmlDocument(html: string): Document {
  const { document } = parseHTML(html);
  let root = document.documentElement;
  if (root?.tagName !== 'HTML') {
    root = document.createElement('html');
    root.append(...[...document.childNodes].filter((node) => node.nodeType !== DOCUMENT_TYPE_NODE));
    document.append(root);
  }
  if (![...root.children].some((child) => child.tagName === 'BODY')) {
    const body = document.createElement('body');
    body.append(...[...root.childNodes].filter((node) => node.nodeName !== 'HEAD'));
    root.append(body);
  }
  return document;
}
