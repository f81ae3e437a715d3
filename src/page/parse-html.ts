import { parseHTML } from 'linkedom';

const DOCUMENT_TYPE_NODE = 10;

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
