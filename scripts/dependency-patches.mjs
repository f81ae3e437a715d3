// Small source edits to installed npm packages, applied after every install
// (scripts/bootstrap.mjs, the Dockerfile) because npm has no patch mechanism of
// its own. Each names the exact version it was written against: a different
// version stops the install, so an upgrade is reviewed rather than left
// unpatched. Applying is idempotent. Built-ins only: it runs before anything else
// is installed. `node scripts/dependency-patches.mjs [root]` applies them.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const LINKEDOM_EVENT_TARGET = {
  // linkedom gives every node it creates (elements, text, attributes) an entry in a module-wide
  // WeakMap holding an empty Map of listeners, though a parsed page never gets a listener: per page
  // converted that was most of the parse's time and, as WeakMap entries are ephemerons every
  // collection must trace, a large part of the worker's garbage collection (docs/benchmarks.md,
  // "The HTTP path's CPU"). The map is now made when the first listener is added.
  find: [
    '  constructor() {\n    wm.set(this, new Map);\n  }',
    '    const map = wm.get(this);\n    if (!map.has(type)) \n      map.set(type, new Map);',
    '    const map = wm.get(this);\n    if (map.has(type)) {',
  ],
  replace: [
    '  constructor() {}',
    '    let map = wm.get(this);\n    if (!map) wm.set(this, map = new Map);\n    if (!map.has(type)) \n      map.set(type, new Map);',
    '    const map = wm.get(this);\n    if (map && map.has(type)) {',
  ],
};

const LINKEDOM_ATTRIBUTE_NAMES = {
  // HTML attribute names are case-insensitive: the HTML parser lowercases them outside SVG. linkedom
  // kept them as written (to keep SVG's viewBox), so getAttribute('href') found nothing on
  // `<A HREF=...>` and a crawl discovered no link of such a page. SVG content keeps its case; of two
  // spellings of one name the lowercase one is kept.
  find: ['      for (const name of keys(attributes))\n        attribute(node, end, document.createAttribute(name), attributes[name], active);'],
  replace: [
    [
      '      for (const name of keys(attributes)) {',
      '        const html = isHTML && !ownerSVGElement ? name.toLowerCase() : name;',
      '        if (html !== name && html in attributes) continue;',
      '        attribute(node, end, document.createAttribute(html), attributes[name], active);',
      '      }',
    ].join('\n'),
  ],
};

const CRAWLEE_DEDUP_CACHE = {
  // Every request queue (one per crawler: a batch's, a rendered single scrape's) filled two arrays
  // of 1,000,000 slots for a cache that spares re-adding known requests: 11 ms of CPU and 16 MB of
  // garbage per crawler, on the path of every page a scrape renders. A batch's queue holds at most
  // the URLs of its batch; a smaller cache only misses more (a harmless re-submission, never a
  // dropped request, as the class says of collisions).
  find: ['    constructor(size = 1000000) {'],
  replace: ['    constructor(size = 4096) {'],
};

export const DEPENDENCY_PATCHES = [
  {
    name: 'linkedom',
    version: '0.18.12',
    files: {
      'esm/interface/event-target.js': LINKEDOM_EVENT_TARGET,
      'cjs/interface/event-target.js': LINKEDOM_EVENT_TARGET,
      'esm/shared/parse-from-string.js': LINKEDOM_ATTRIBUTE_NAMES,
      'cjs/shared/parse-from-string.js': LINKEDOM_ATTRIBUTE_NAMES,
    },
  },
  { name: '@crawlee/core', version: '3.18.1', files: { 'storages/request_dedup_cache.js': CRAWLEE_DEDUP_CACHE } },
];

/** Applies every patch under `root`'s node_modules; throws when a package's version or text is not the one a patch was written for. */
export function applyDependencyPatches(root, patches = DEPENDENCY_PATCHES) {
  const applied = [];
  for (const patch of patches) {
    const dir = join(root, 'node_modules', patch.name);
    // Not installed (npm ci --omit=dev for a dev dependency): nothing to patch.
    if (!existsSync(join(dir, 'package.json'))) continue;
    const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    if (version !== patch.version) {
      throw new Error(
        `${patch.name} is ${version}, but scripts/dependency-patches.mjs patches ${patch.version}: check whether the new version still needs the patch and update it`,
      );
    }
    for (const [file, edit] of Object.entries(patch.files)) {
      const path = join(dir, file);
      const text = readFileSync(path, 'utf8');
      if (edit.replace.every((after) => text.includes(after))) continue;
      let patched = text;
      edit.find.forEach((before, i) => {
        if (patched.split(before).length !== 2) throw new Error(`${patch.name}@${patch.version} ${file}: the text to patch is not there exactly once`);
        patched = patched.replace(before, edit.replace[i]);
      });
      writeFileSync(path, patched);
      applied.push(`${patch.name}/${file}`);
    }
  }
  return applied;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  applyDependencyPatches(process.argv[2] ?? dirname(dirname(fileURLToPath(import.meta.url))));
}
