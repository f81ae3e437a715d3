// Settings are read in one way only: a section function (a `config.ts` beside the code it
// configures, composed by src/config.ts) calls the readers of src/platform/config/env.ts,
// the only code that reads process.env for a setting. No other module of src, activities
// or workflows reads a setting from process.env (passing the whole environment on to a
// child is not reading it), every variable a section reads is in the settings table of
// docs/operations.md, and every row of that table is read by a section. The scan is shown
// to fire on a file that reads the environment in every way it knows.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../../..');
const READERS = 'src/platform/config/env.ts';
const READER_NAMES = new Set(['str', 'int', 'positiveInt', 'boundedInt', 'nonNegativeInt', 'bool', 'oneOf', 'endpoints']);
/** Rows of the table no section reads, and why. */
const READ_ELSEWHERE: Record<string, string> = {
  MALLOC_ARENA_MAX: "glibc's own, which npm start adds to its children's environment (platform/process/malloc-arenas.ts)",
};

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(ts|js)$/.test(e.name))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)))
    .filter((path) => !path.startsWith('src/generated/'));
}

function documentedSettings(): Set<string> {
  const text = readFileSync(join(ROOT, 'docs/operations.md'), 'utf8');
  const start = text.indexOf('\n## Configuration');
  const section = text.slice(start, text.indexOf('\n## ', start + 1));
  const rows = section.split('\n').filter((line) => line.startsWith('| `'));
  return new Set(rows.flatMap((row) => [...row.split('|')[1].matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1])));
}

function isProcessEnv(node: ts.Node): boolean {
  return ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'process' && node.name.text === 'env';
}

/** Each read of process.env in `text`: the variable's name, or `[dynamic]` when the code computes it. */
function envReads(path: string, text: string): { line: number; name: string }[] {
  // Parsing every module took 7.5 s on a loaded machine: a module that never names process.env reads nothing from it.
  if (!text.includes('process.env')) return [];
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const reads: { line: number; name: string }[] = [];
  const at = (node: ts.Node, name: string) => reads.push({ line: file.getLineAndCharacterOfPosition(node.getStart()).line + 1, name });
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAccessExpression(node) && isProcessEnv(node.expression)) at(node, node.name.text);
    if (ts.isElementAccessExpression(node) && isProcessEnv(node.expression))
      at(node, ts.isStringLiteralLike(node.argumentExpression) ? node.argumentExpression.text : '[dynamic]');
    if (ts.isVariableDeclaration(node) && node.initializer && isProcessEnv(node.initializer) && ts.isObjectBindingPattern(node.name))
      for (const element of node.name.elements) at(element, ((element.propertyName ?? element.name) as ts.Identifier).text);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return reads;
}

/** Reads of a setting (a documented variable, or one whose name the code computes) outside the readers. */
function settingReads(paths: string[], settings: Set<string>, textOf: (path: string) => string): string[] {
  return paths
    .filter((path) => path !== READERS)
    .flatMap((path) =>
      envReads(path, textOf(path))
        .filter((read) => read.name === '[dynamic]' || settings.has(read.name))
        .map((read) => `${path}:${read.line} reads ${read.name}`),
    );
}

/** The variables the section functions read: the first argument of each reader call of the modules that import the readers. */
function sectionVariables(paths: string[]): Set<string> {
  const names = new Set<string>();
  for (const path of paths) {
    const text = readFileSync(join(ROOT, path), 'utf8');
    if (path === READERS || !text.includes('/config/env.ts')) continue;
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && READER_NAMES.has(node.expression.text)) {
        const [first] = node.arguments;
        if (first && ts.isStringLiteralLike(first)) names.add(first.text);
      }
      ts.forEachChild(node, visit);
    };
    visit(ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true));
  }
  return names;
}

const paths = ['src', 'activities', 'workflows'].flatMap(sources);

it('no module but the readers reads a setting from process.env', () => {
  const settings = documentedSettings();
  expect(settings.size).toBeGreaterThan(100);
  expect(settingReads(paths, settings, (path) => readFileSync(join(ROOT, path), 'utf8'))).toEqual([]);
});

it('the settings table lists every variable a section reads, and no variable none reads', () => {
  const documented = documentedSettings();
  const read = sectionVariables(paths);
  expect(read.size).toBeGreaterThan(100);
  expect([...read].filter((name) => !documented.has(name)).sort()).toEqual([]);
  expect([...documented].filter((name) => !read.has(name) && !(name in READ_ELSEWHERE)).sort()).toEqual([]);
});

it('the scan sees every way of reading the environment', () => {
  const fixture = [
    'const level = process.env.LOG_LEVEL;',
    "const port = process.env['PORT'];",
    'const name = "HOST"; const host = process.env[name];',
    'const { DATA_DIR, PATH } = process.env;',
    'const path = process.env.PATH;',
    'spawn("x", [], { env: process.env });',
  ].join('\n');
  const found = settingReads(['src/example.ts', READERS], new Set(['LOG_LEVEL', 'PORT', 'HOST', 'DATA_DIR']), () => fixture);
  expect(found).toEqual([
    'src/example.ts:1 reads LOG_LEVEL',
    'src/example.ts:2 reads PORT',
    'src/example.ts:3 reads [dynamic]',
    'src/example.ts:4 reads DATA_DIR',
  ]);
});
