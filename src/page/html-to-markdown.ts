import TurndownService from 'turndown';
import { gfm } from 'turndown-plugin-gfm';

// One shared instance: building the rule set per page would be wasted work, and conversion keeps no state.
const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
turndown.use(gfm);
// The GFM table rules read a table's first row and throw on a table that has none, which failed the
// whole page; such a table is only its caption's text, if any. Added last, so it is tried first.
turndown.addRule('tableWithoutRows', {
  filter: (node) => node.nodeName === 'TABLE' && (node as HTMLTableElement).rows.length === 0,
  replacement: (content) => `\n\n${content}\n\n`,
});
// The GFM rule reads the `checked` and `type` properties, which linkedom's inputs lack: the attributes say the same.
turndown.addRule('taskListItemFromAttributes', {
  filter: (node) => node.nodeName === 'INPUT' && node.getAttribute('type')?.toLowerCase() === 'checkbox' && node.parentNode?.nodeName === 'LI',
  replacement: (_content, node) => `${(node as Element).hasAttribute('checked') ? '[x]' : '[ ]'} `,
});

// Turndown's fenced blocks, possibly indented inside list items; their blank lines are code, not layout.
const FENCED_CODE_BLOCK = /^([ \t]*)(`{3,})[^\n]*\n[\s\S]*?\n\1\2[ \t]*$/gm;
const THREE_OR_MORE_BLANK_LINES = /\n(?:[ \t]*\n){3,}/g;

/** Markdown of an HTML document or fragment, or of a parsed element (parseHtmlDocument's); '' when it has no content. */
export function htmlToMarkdown(html: string | Element): string {
  // linkedom keeps a text's entities as text nodes of their own; turndown escapes each node alone,
  // so the `>` of `-&gt;` would start a node and be escaped as a quote. A parse merges them.
  if (typeof html !== 'string') html.normalize();
  // Turndown takes any DOM node; its types name the browser's HTMLElement.
  const markdown = turndown.turndown(html as string | HTMLElement);
  let collapsed = '';
  let lastEnd = 0;
  for (const block of markdown.matchAll(FENCED_CODE_BLOCK)) {
    collapsed += collapseBlankLines(markdown.slice(lastEnd, block.index)) + block[0];
    lastEnd = block.index + block[0].length;
  }
  collapsed += collapseBlankLines(markdown.slice(lastEnd));
  return collapsed.trim();
}

function collapseBlankLines(text: string): string {
  return text.replace(THREE_OR_MORE_BLANK_LINES, '\n\n\n');
}
