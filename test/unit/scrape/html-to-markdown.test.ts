import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../../../src/page/html-to-markdown.ts';
import { parseHtmlDocument } from '../../../src/page/parse-html.ts';

describe('htmlToMarkdown', () => {
  it('converts headings, lists, links and emphasis', () => {
    const markdown = htmlToMarkdown(`<html><body><h1>Title</h1><h2>Section</h2>
      <ul><li>first</li><li>second</li></ul><ol><li>one</li></ol>
      <p>A <a href="https://example.com/x">link</a>, <strong>bold</strong> and <del>gone</del>.</p></body></html>`);
    expect(markdown).toBe('# Title\n\n## Section\n\n-   first\n-   second\n\n1.  one\n\nA [link](https://example.com/x), **bold** and ~gone~.');
  });

  it('converts tables with a header row to GFM tables', () => {
    const markdown = htmlToMarkdown('<table><thead><tr><th>Name</th><th>Qty</th></tr></thead><tbody><tr><td>Apple</td><td>3</td></tr></tbody></table>');
    expect(markdown).toBe('| Name | Qty |\n| --- | --- |\n| Apple | 3 |');
  });

  it('converts task lists and fenced code', () => {
    expect(htmlToMarkdown('<ul><li><input type="checkbox" checked>done</li><li><input type="checkbox">todo</li></ul>')).toBe('-   [x] done\n-   [ ] todo');
    expect(htmlToMarkdown('<pre><code class="language-ts">const a = 1;</code></pre>')).toBe('```ts\nconst a = 1;\n```');
  });

  it('collapses runs of three or more blank lines to two, but not inside code', () => {
    const markdown = htmlToMarkdown('<p>a<br><br><br><br><br>b</p><pre><code>x\n\n\n\n\ny</code></pre>');
    expect(markdown).toBe('a  \n\n\nb\n\n```\nx\n\n\n\n\ny\n```');
  });

  it('returns an empty string when there is no content', () => {
    expect(htmlToMarkdown('')).toBe('');
    expect(htmlToMarkdown('<html><body>  \n </body></html>')).toBe('');
  });
});

describe('htmlToMarkdown of a parsed page', () => {
  const fromTree = (html: string) => htmlToMarkdown(parseHtmlDocument(html).documentElement);

  it('reads the tree as the HTML would read', () => {
    const page = `<h1>Title</h1><p>A <a href="https://example.com/x">link</a> -&gt; <em>b</em> &amp; c</p><ul><li>first</li></ul>
      <table><thead><tr><th>Name</th><th>Qty</th></tr></thead><tbody><tr><td>Apple</td><td>3</td></tr></tbody><tfoot><tr><td>All</td><td>3</td></tr></tfoot></table>
      <table><tr><th>Direct</th></tr><tr><td>row</td></tr></table><pre><code class="language-ts">a  b</code></pre>`;
    expect(fromTree(page)).toBe(htmlToMarkdown(page));
    expect(fromTree(page)).toContain('A [link](https://example.com/x) -> _b_ & c');
    expect(fromTree(page)).toContain('| Name | Qty |\n| --- | --- |\n| Apple | 3 |\n| All | 3 |');
  });

  it('keeps a page with an empty table (the GFM rules threw on it)', () => {
    expect(fromTree('<p>x</p><table></table><table><caption>Empty</caption></table><p>y</p>')).toBe('x\n\nEmpty\n\ny');
    expect(htmlToMarkdown('<p>x</p><table></table><p>y</p>')).toBe('x\n\ny');
  });

  it('reads task list boxes from their attributes', () => {
    expect(fromTree('<ul><li><INPUT TYPE=CHECKBOX CHECKED>done</li><li><input type="checkbox">todo</li></ul>')).toBe('-   [x] done\n-   [ ] todo');
  });

  it('makes links of anchors whose attribute names are upper case', () => {
    expect(fromTree('<DL><DT><A HREF="https://www.debian.org/">Debian</A></DL>')).toBe('[Debian](https://www.debian.org/)');
  });
});
