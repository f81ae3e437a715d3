// Every link in README.md and docs/ works in a fresh clone: a relative link names a
// file of the repository and an anchor names a heading of its target (GitHub's slug
// rules); a URL is public, since a reader's localhost is not ours (such addresses
// are written as code). Fenced code and code spans are not links.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');

/** GitHub's heading anchor: lower case, punctuation but `-` and `_` dropped, spaces to `-`. */
function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

/** The lines outside fenced blocks, code spans dropped (links) or unwrapped (headings: `POST /v2/crawl`). */
function prose(markdown: string, codeSpans: 'drop' | 'unwrap'): string[] {
  let fence: string | undefined;
  return markdown.split('\n').map((line) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
      return '';
    }
    if (marker) {
      fence = marker;
      return '';
    }
    return line.replace(/(`+)([^`]*?)\1/g, codeSpans === 'drop' ? '' : '$2');
  });
}

function headingSlugs(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const slugs = new Set<string>();
  for (const line of prose(markdown, 'unwrap')) {
    const anchor = /<a\s+(?:name|id)="([^"]+)"/.exec(line)?.[1];
    if (anchor) slugs.add(anchor);
    const heading = /^#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = slug(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    slugs.add(count === 0 ? base : `${base}-${count}`);
  }
  return slugs;
}

function markdownLinks(markdown: string): string[] {
  const links: string[] = [];
  for (const line of prose(markdown, 'drop')) {
    for (const m of line.matchAll(/\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g)) links.push(m[1]);
    const reference = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/.exec(line)?.[1];
    if (reference) links.push(reference);
    const bare = line.replace(/\]\([^)]*\)/g, '](') + ' ';
    for (const m of bare.matchAll(/(?:^|[\s(<])(https?:\/\/[^\s<>)]+)/g)) links.push(m[1].replace(/[.,;:]+$/, ''));
  }
  return links;
}

function isPrivateHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return (
    !h.includes('.') ||
    h === 'localhost' ||
    h.endsWith('.localhost') ||
    h.endsWith('.local') ||
    h.endsWith('.internal') ||
    /^(127|10|0)\./.test(h) ||
    /^192\.168\./.test(h) ||
    /^169\.254\./.test(h) ||
    /^172\.(1[6-9]|2\d|3[01])\./.test(h)
  );
}

type Target = { exists: boolean; markdown?: string };

/** What is wrong with one link of `file` (a path from the root), or undefined. */
function linkProblem(file: string, link: string, read: (path: string) => Target): string | undefined {
  if (/^https?:\/\//i.test(link)) {
    let host: string;
    try {
      host = new URL(link).hostname;
    } catch {
      return 'is not a valid URL';
    }
    return isPrivateHost(host) ? `points at ${host}, which is no public host (write it as code)` : undefined;
  }
  if (/^mailto:/i.test(link)) return undefined;
  if (/^[a-z][a-z0-9+.-]*:/i.test(link)) return 'is neither a path in the repository nor an http(s) URL';
  if (link.startsWith('/')) return 'is an absolute path; use a path relative to the file';
  const [rawPath, anchor] = link.split('#', 2) as [string, string | undefined];
  const path = rawPath === '' ? file : relative(ROOT, resolve(ROOT, dirname(file), decodeURIComponent(rawPath)));
  if (path.startsWith('..') || path.startsWith(sep)) return 'leaves the repository';
  const target = read(path);
  if (!target.exists) return `names ${path}, which does not exist`;
  if (anchor === undefined) return undefined;
  if (target.markdown === undefined) return `has an anchor, but ${path} is no markdown file`;
  return headingSlugs(target.markdown).has(anchor) ? undefined : `names #${anchor}, no heading of ${path}`;
}

function readFromDisk(path: string): Target {
  const full = join(ROOT, path);
  if (!existsSync(full)) return { exists: false };
  return { exists: true, markdown: path.endsWith('.md') && statSync(full).isFile() ? readFileSync(full, 'utf8') : undefined };
}

describe('slug', () => {
  it('follows GitHub on headings with code, braces, parentheses and duplicates', () => {
    expect(slug('`POST /v2/crawl`')).toBe('post-v2crawl');
    expect(slug('GET /v2/crawl/{id}')).toBe('get-v2crawlid');
    expect(slug('Path patterns (RE2 syntax)')).toBe('path-patterns-re2-syntax');
    expect(slug('The job WebSocket (`watcher()`)')).toBe('the-job-websocket-watcher');
    expect(slug('Rendering: HTTP first')).toBe('rendering-http-first');
    expect(slug('`SANDBOX_WARM_RUNNERS` and robots.txt')).toBe('sandbox_warm_runners-and-robotstxt');
    expect(slug('Retiring a patch: `patched` → `deprecatePatch` → removal')).toBe('retiring-a-patch-patched--deprecatepatch--removal');
    expect([...headingSlugs('# Tests\n\n## Tests\n\n```\n# Tests\n```\n\n### Tests\n')]).toEqual(['tests', 'tests-1', 'tests-2']);
  });
});

describe('linkProblem', () => {
  const files: Record<string, string> = { 'docs/a.md': '# A\n\n## `GET /v2/crawl/{id}`\n', 'docs/b.txt': 'b' };
  const read = (path: string): Target => (path in files ? { exists: true, markdown: path.endsWith('.md') ? files[path] : undefined } : { exists: false });

  it('accepts files, anchors and public URLs', () => {
    for (const link of ['a.md', 'a.md#get-v2crawlid', '#a', 'b.txt', 'https://temporal.io', '../README.md'])
      expect(linkProblem('docs/a.md', link, (p) => (p === 'README.md' ? { exists: true, markdown: '' } : read(p)))).toBeUndefined();
  });

  it('refuses what breaks in a fresh clone or on a reader machine', () => {
    expect(linkProblem('docs/a.md', 'c.md', read)).toMatch(/does not exist/);
    expect(linkProblem('docs/a.md', 'a.md#get-v2-crawl-id', read)).toMatch(/no heading/);
    expect(linkProblem('docs/a.md', 'b.txt#x', read)).toMatch(/no markdown/);
    expect(linkProblem('docs/a.md', '../../shared/spec.md', read)).toMatch(/leaves the repository/);
    expect(linkProblem('docs/a.md', '/etc/passwd', read)).toMatch(/absolute/);
    expect(linkProblem('docs/a.md', 'http://localhost:3002/v2', read)).toMatch(/no public host/);
    expect(linkProblem('docs/a.md', 'http://127.0.0.1:8233', read)).toMatch(/no public host/);
    expect(linkProblem('docs/a.md', 'http://searxng:8080', read)).toMatch(/no public host/);
  });

  it('finds links, images and bare URLs, but none in code', () => {
    const text = '[a](x.md) ![b](img.png "t") <https://a.example/> http://localhost:1/ `[c](y.md)`\n\n```\n[d](z.md)\n```\n[e]: ref.md\n';
    expect(markdownLinks(text)).toEqual(['x.md', 'img.png', 'https://a.example/', 'http://localhost:1/', 'ref.md']);
  });
});

describe('README.md and docs/', () => {
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '--', 'README.md', 'docs'], {
    cwd: ROOT,
    encoding: 'utf8',
  })
    .split('\n')
    .filter((f) => f.endsWith('.md') && existsSync(join(ROOT, f)));

  it('every link resolves in the repository or is a public URL', () => {
    expect(files).toContain('README.md');
    expect(files.length).toBeGreaterThanOrEqual(12);
    const problems: string[] = [];
    let links = 0;
    let anchors = 0;
    for (const file of files) {
      for (const link of markdownLinks(readFileSync(join(ROOT, file), 'utf8'))) {
        links++;
        if (link.includes('#')) anchors++;
        const problem = linkProblem(file, link, readFromDisk);
        if (problem) problems.push(`${file}: (${link}) ${problem}`);
      }
    }
    expect(problems).toEqual([]);
    expect(links).toBeGreaterThan(80);
    expect(anchors).toBeGreaterThan(30);
  });
});
