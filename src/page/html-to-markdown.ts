import TurndownService from 'turndown';
import { gfm } from 'turndown-plugin-gfm';

// One shared instance: building the rule set per page would be wasted work, and conversion keeps no state.
const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
turndown.use(gfm);

// Turndown's fenced blocks, possibly indented inside list items; their blank lines are code, not layout.
const FENCED_CODE_BLOCK = /^([ \t]*)(`{3,})[^\n]*\n[\s\S]*?\n\1\2[ \t]*$/gm;
const THREE_OR_MORE_BLANK_LINES = /\n(?:[ \t]*\n){3,}/g;

/** Markdown of an HTML document or fragment; '' when it has no content. */
export function htmlToMarkdown(html: string): string {
  const markdown = turndown.turndown(html);
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
