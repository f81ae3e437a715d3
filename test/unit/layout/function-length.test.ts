// No function of src is longer than 80 lines, except those listed in long-functions.json,
// and that list only shrinks. A function is what has a body of code: a function declaration
// or expression, an arrow function, a method, a constructor, a getter or a setter. Object
// literals, zod schemas, arrays and type declarations are not functions; an arrow function
// or method inside one is. A function's length is the lines from its first token (its
// modifiers, not the comment above it) to its last, so a nested function counts on its own
// and again inside its parent: simple to check by eye, and a long callback is a long function
// wherever it sits. Every .ts and .js file under src is read (src/generated is Prisma's), with
// the TypeScript compiler's parser alone, so the whole scan takes well under a second.
//
// A function is named by where it is declared, so that its name survives edits elsewhere in
// the file: `Class.method`, `Class.get size`, the variable or property an arrow function is
// assigned to, `outer.inner` for a function declared in another. A function without a name is
// named by the nearest named thing around it, what it is passed to, and its rank among the
// functions there passed to the same: `register.router.post callback#2` is the second passed to
// `router.post` in `register`, `handler.wrap callback#1` the one of `const handler = wrap(() => ...)`;
// one passed to nothing is `anonymous#1`. A name met twice in one file gets ` (2)`.
//
// long-functions.json maps `path:name` to the length the function had when it was listed. The
// test fails when a function not listed is over 80 lines, when a listed one grew past its listed
// length, and when a listed one is 80 lines or fewer or is gone (delete its line). The list was
// written once by `UPDATE_LONG_FUNCTIONS=1 npm test -- test/unit/layout/function-length.test.ts`,
// which rewrites it from the tree as it is; that is not for making room for a new long function.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../../..');
const LIMIT = 80;
const LIST = join(import.meta.dirname, 'long-functions.json');
const SKIPPED = new Set(['src/generated']);

interface FunctionLength {
  name: string;
  line: number;
  lines: number;
}

type FunctionNode =
  | ts.FunctionDeclaration
  | ts.FunctionExpression
  | ts.ArrowFunction
  | ts.MethodDeclaration
  | ts.ConstructorDeclaration
  | ts.GetAccessorDeclaration
  | ts.SetAccessorDeclaration;

/** Signatures (overloads, abstract methods, `declare function`) have no body and are not counted. */
function isFunctionWithBody(node: ts.Node): node is FunctionNode {
  return (
    (ts.isFunctionDeclaration(node) ||
      ts.isFunctionExpression(node) ||
      ts.isArrowFunction(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isConstructorDeclaration(node) ||
      ts.isGetAccessorDeclaration(node) ||
      ts.isSetAccessorDeclaration(node)) &&
    node.body !== undefined
  );
}

/** The name a declaration gives, none for a destructuring pattern. */
function declaredName(name: ts.PropertyName | ts.BindingName): string | undefined {
  if (ts.isObjectBindingPattern(name) || ts.isArrayBindingPattern(name)) return undefined;
  if (ts.isComputedPropertyName(name)) return `[${name.expression.getText()}]`;
  return name.text;
}

/** `(x)`, `x as T`, `x satisfies T`, `<T>x`, `x!`: the value is x's. */
function isWrapper(node: ts.Node): node is ts.ParenthesizedExpression | ts.AsExpression | ts.SatisfiesExpression | ts.TypeAssertion | ts.NonNullExpression {
  return (
    ts.isParenthesizedExpression(node) ||
    ts.isAsExpression(node) ||
    ts.isSatisfiesExpression(node) ||
    ts.isTypeAssertionExpression(node) ||
    ts.isNonNullExpression(node)
  );
}

/** What a function or class is assigned to: `const x = (() => {}) as T` names it `x`. */
function assignedName(node: ts.Node): string | undefined {
  let at = node;
  while (isWrapper(at.parent)) at = at.parent;
  const parent = at.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyDeclaration(parent) || ts.isPropertyAssignment(parent)) && parent.initializer === at) {
    return declaredName(parent.name);
  }
  if (ts.isBinaryExpression(parent) && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken && parent.right === at) return parent.left.getText();
  if (ts.isExportAssignment(parent)) return 'default';
  return undefined;
}

function functionName(node: FunctionNode): string | undefined {
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  if (ts.isGetAccessorDeclaration(node)) return `get ${declaredName(node.name)}`;
  if (ts.isSetAccessorDeclaration(node)) return `set ${declaredName(node.name)}`;
  if (ts.isMethodDeclaration(node)) return declaredName(node.name);
  if (node.name) return node.name.text;
  if (ts.isFunctionDeclaration(node)) return 'default';
  return assignedName(node);
}

/** A declaration that names what is inside it, when what it holds is not itself a function (that takes the name). */
function scopeName(node: ts.Node): string | undefined {
  if (ts.isClassDeclaration(node) || ts.isClassExpression(node)) return node.name?.text ?? assignedName(node);
  if (ts.isVariableDeclaration(node) || ts.isPropertyDeclaration(node) || ts.isPropertyAssignment(node)) {
    let value = node.initializer;
    while (value && isWrapper(value)) value = value.expression;
    if (!value || isFunctionWithBody(value) || ts.isClassExpression(value)) return undefined;
    return declaredName(node.name);
  }
  return undefined;
}

/** `router.post callback` for a function passed to `router.post(...)`, `anonymous` for one that is not an argument. */
function anonymousLabel(node: FunctionNode): string {
  const call = node.parent;
  if (!(ts.isCallExpression(call) || ts.isNewExpression(call)) || !call.arguments?.includes(node as ts.Expression)) return 'anonymous';
  const callee = call.expression.getText();
  if (/^[\w$.]+$/.test(callee)) return `${ts.isNewExpression(call) ? 'new ' : ''}${callee} callback`;
  return ts.isPropertyAccessExpression(call.expression) ? `${call.expression.name.text} callback` : 'callback';
}

/** Every function of a file with its name and its length in lines. */
function functionLengths(fileName: string, text: string): FunctionLength[] {
  const kind = fileName.endsWith('.js') ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, kind);
  const lineOf = (position: number) => source.getLineAndCharacterOfPosition(position).line + 1;
  const found: FunctionLength[] = [];
  const seen = new Map<string, number>();
  const unique = (name: string) => {
    const count = (seen.get(name) ?? 0) + 1;
    seen.set(name, count);
    return count === 1 ? name : `${name} (${count})`;
  };
  /** `anonymous` ranks, per label, of the unnamed functions met so far in the scope. */
  type Ranks = Map<string, number>;
  const visit = (node: ts.Node, prefix: string, ranks: Ranks): void => {
    const within = (name: string) => (prefix ? `${prefix}.${name}` : name);
    if (isFunctionWithBody(node)) {
      let own = functionName(node);
      if (own === undefined) {
        const label = anonymousLabel(node);
        ranks.set(label, (ranks.get(label) ?? 0) + 1);
        own = `${label}#${ranks.get(label)}`;
      }
      const name = unique(within(own));
      const line = lineOf(node.getStart(source));
      found.push({ name, line, lines: lineOf(node.getEnd()) - line + 1 });
      ts.forEachChild(node, (child) => visit(child, name, new Map()));
      return;
    }
    const scope = scopeName(node);
    if (scope !== undefined) {
      ts.forEachChild(node, (child) => visit(child, within(scope), new Map()));
      return;
    }
    ts.forEachChild(node, (child) => visit(child, prefix, ranks));
  };
  visit(source, '', new Map());
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return SKIPPED.has(path) ? [] : sourceFiles(path);
    return /\.(ts|js)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** `path:name` to where and how long, for every function of a file over the limit. */
function longFunctions(path: string, text: string): Record<string, FunctionLength> {
  return Object.fromEntries(functionLengths(path, text).flatMap((fn) => (fn.lines > LIMIT ? [[`${path}:${fn.name}`, fn]] : [])));
}

/** What is wrong with the tree's long functions against the list, one line each. */
function problems(long: Record<string, FunctionLength>, listed: Record<string, number>): string[] {
  const found: string[] = [];
  for (const [key, { line, lines }] of Object.entries(long)) {
    const allowed = listed[key];
    if (allowed === undefined) found.push(`${key} (line ${line}) is ${lines} lines, over ${LIMIT}: split it`);
    else if (lines > allowed) found.push(`${key} (line ${line}) grew to ${lines} lines, past its listed ${allowed}: shorten it to ${allowed} or fewer`);
  }
  for (const key of Object.keys(listed)) {
    if (long[key] === undefined) {
      found.push(`${key} is now ${LIMIT} lines or fewer, or gone: delete its line from ${relative(ROOT, LIST)}`);
    }
  }
  return found;
}

it(`no function of src is over ${LIMIT} lines but those listed, none grew, and every listed one is still long`, () => {
  const long: Record<string, FunctionLength> = Object.assign(
    {},
    ...sourceFiles('src').map((path) => longFunctions(path, readFileSync(join(ROOT, path), 'utf8'))),
  );
  if (process.env.UPDATE_LONG_FUNCTIONS === '1') {
    const keys = Object.keys(long).sort((a, b) => a.localeCompare(b, 'en'));
    writeFileSync(LIST, `${JSON.stringify(Object.fromEntries(keys.map((key) => [key, long[key].lines])), null, 2)}\n`);
  }
  const listed = JSON.parse(readFileSync(LIST, 'utf8')) as Record<string, number>;
  const found = problems(long, listed);
  expect(found, found.join('\n')).toEqual([]);
  // About a second alone; the margin is for a run sharing two cores with the whole suite.
}, 30_000);

describe('function lengths and names', () => {
  const body = (lines: number) => Array.from({ length: lines - 2 }, (_, i) => `  call(${i});`).join('\n');
  const lengths = (text: string) => Object.fromEntries(functionLengths('example.ts', text).map((f) => [f.name, f.lines]));

  it('counts a function from its first line to its last, and the limit is on 81', () => {
    const text = `// a comment above is not counted\nexport function long() {\n${body(81)}\n}\nfunction fits() {\n${body(80)}\n}\n`;
    expect(lengths(text)).toEqual({ long: 81, fits: 80 });
    const long = longFunctions('src/a.ts', text);
    expect(problems(long, {})).toEqual(['src/a.ts:long (line 2) is 81 lines, over 80: split it']);
    expect(problems(long, { 'src/a.ts:long': 81 })).toEqual([]);
    const grown = { 'src/a.ts:long': { name: 'long', line: 2, lines: 90 } };
    expect(problems(grown, { 'src/a.ts:long': 85 })).toEqual(['src/a.ts:long (line 2) grew to 90 lines, past its listed 85: shorten it to 85 or fewer']);
    expect(problems({}, { 'src/a.ts:long': 81 })).toEqual([
      'src/a.ts:long is now 80 lines or fewer, or gone: delete its line from test/unit/layout/long-functions.json',
    ]);
  });

  it('names a function by where it is declared, and counts a nested one on its own and in its parent', () => {
    const text = [
      'export const handlers = {',
      '  list: async (req: Request) => {',
      '    return req;',
      '  },',
      '  show(id: string) { return id; },',
      '  nested: { deep: function () {} },',
      '};',
      'export class Store {',
      '  constructor(private readonly n: number) {}',
      '  get size() { return this.n; }',
      '  set size(value: number) {}',
      '  load = () => this.n;',
      '  abstract?: () => void;',
      '}',
      'function outer() {',
      '  function inner() {}',
      '  [1].map((x) => x);',
      '  [2].map((x) => x);',
      '  const wrapped = wrap(() => 1);',
      '  return [new Promise((r) => r), (() => inner)()];',
      '}',
      'const schema = z.object({ a: z.string().refine((s) => s !== "") });',
      'function overloaded(a: string): string;',
      'function overloaded(a: string) { return a; }',
      'if (x) { const dup = () => 1; } else { const dup = () => 2; }',
      'export default () => 0;',
      'function listed() { const items = [1]; return { items: () => items }; }',
    ].join('\n');
    expect(lengths(text)).toEqual({
      'handlers.list': 3,
      'handlers.show': 1,
      'handlers.nested.deep': 1,
      'Store.constructor': 1,
      'Store.get size': 1,
      'Store.set size': 1,
      'Store.load': 1,
      outer: 7,
      'outer.inner': 1,
      'outer.map callback#1': 1,
      'outer.map callback#2': 1,
      'outer.wrapped.wrap callback#1': 1,
      'outer.new Promise callback#1': 1,
      'outer.anonymous#1': 1,
      'schema.a.refine callback#1': 1,
      overloaded: 1,
      dup: 1,
      'dup (2)': 1,
      default: 1,
      listed: 1,
      'listed.items': 1,
    });
  });

  it('reads the in-page scripts, which are JavaScript', () => {
    expect(functionLengths('page.js', 'function read() {\n  return document.title;\n}\n')).toEqual([{ name: 'read', line: 1, lines: 3 }]);
  });
});
