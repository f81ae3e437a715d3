import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseHTML } from 'linkedom';
import { applyDependencyPatches, DEPENDENCY_PATCHES } from '../../../scripts/dependency-patches.mjs';

const ROOT = join(import.meta.dirname, '..', '..', '..');

const patch = {
  name: 'demo',
  version: '1.0.0',
  files: { 'lib/a.js': { find: ['new Map();', 'old()'], replace: ['null;', 'fresh()'] } },
};

describe('dependency patches', () => {
  let dir: string | undefined;
  afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));

  const installed = (version: string, text: string) => {
    dir = mkdtempSync(join(tmpdir(), 'patches-'));
    mkdirSync(join(dir, 'node_modules', 'demo', 'lib'), { recursive: true });
    writeFileSync(join(dir, 'node_modules', 'demo', 'package.json'), JSON.stringify({ name: 'demo', version }));
    writeFileSync(join(dir, 'node_modules', 'demo', 'lib', 'a.js'), text);
    return dir;
  };

  it('are in place in this checkout (npm scripts apply them after installing)', () => {
    expect(applyDependencyPatches(ROOT)).toEqual([]);
    expect(DEPENDENCY_PATCHES.map((p) => p.name)).toEqual(expect.arrayContaining(['linkedom', '@crawlee/core']));
  });

  it('edit the named file once and leave it alone afterwards', () => {
    const root = installed('1.0.0', 'const a = new Map();\nold();\n');
    expect(applyDependencyPatches(root, [patch])).toEqual(['demo/lib/a.js']);
    expect(readFileSync(join(root, 'node_modules', 'demo', 'lib', 'a.js'), 'utf8')).toBe('const a = null;\nfresh();\n');
    expect(applyDependencyPatches(root, [patch])).toEqual([]);
  });

  it('refuse another version of the package, and text that is not there exactly once', () => {
    expect(() => applyDependencyPatches(installed('1.0.1', 'new Map();old()'), [patch])).toThrow(/demo is 1\.0\.1, but .* patches 1\.0\.0/);
    expect(() => applyDependencyPatches(installed('1.0.0', 'new Map(); new Map(); old()'), [patch])).toThrow(/not there exactly once/);
  });

  it('skip a package that is not installed', () => {
    dir = mkdtempSync(join(tmpdir(), 'patches-'));
    expect(applyDependencyPatches(dir, [patch])).toEqual([]);
  });

  it("keep linkedom's events working: listeners are added, called with bubbling, and removed", () => {
    const { document, Event } = parseHTML('<html><body><div><p>text</p></div></body></html>');
    const p = document.querySelector('p')!;
    const div = document.querySelector('div')!;
    const seen: string[] = [];
    const onP = () => seen.push('p');
    p.addEventListener('ping', onP);
    div.addEventListener('ping', () => seen.push('div'));
    p.dispatchEvent(new Event('ping', { bubbles: true }));
    p.removeEventListener('ping', onP);
    p.dispatchEvent(new Event('ping', { bubbles: true }));
    // A node that never had a listener.
    document.body.removeEventListener('ping', onP);
    expect(document.body.dispatchEvent(new Event('ping'))).toBe(true);
    expect(seen).toEqual(['p', 'div', 'div']);
  });
});
