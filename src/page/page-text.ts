// The text a reader sees in a parsed page: what the search index stores and
// what the rendering rule measures.

/** Elements whose content is never shown as text. */
const HIDDEN = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'HEAD']);

/** Text under `root`, scripts and styles skipped, whitespace squashed, cut at `max` characters; iterative, as pages nest deep. */
export function visibleText(root: Element | null, max: number): string {
  if (!root) return '';
  const parts: string[] = [];
  let length = 0;
  const stack: Node[] = [root];
  while (stack.length > 0 && length < max) {
    const node = stack.pop()!;
    if (node.nodeType === 3) {
      const text = node.textContent ?? '';
      if (text.trim() !== '') {
        parts.push(text);
        length += text.length + 1;
      }
    } else if (node.nodeType === 1 && !HIDDEN.has((node as Element).tagName)) {
      const children = node.childNodes;
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
    }
  }
  const text = parts.join(' ').replace(/\s+/g, ' ').trim();
  return text.length > max ? text.slice(0, max) : text;
}
