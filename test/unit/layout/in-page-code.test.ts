// Code that runs inside a page does not depend on the loader that runs the service
// (src/page/in-page/in-page-script.ts says why): each script of src/page/in-page is one
// function that compiles and is used; no other module hands a page a function (to
// page.evaluate and its kin) or makes page code of a function's text. The scan reads
// src, activities, workflows and bench with the TypeScript compiler's types, and is
// shown to fire on a file that breaks each rule in every way it knows.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Script } from 'node:vm';
import ts from 'typescript';
import { expect, it } from 'vitest';
import { InPageScript } from '../../../src/page/in-page/in-page-script.ts';

const ROOT = join(import.meta.dirname, '../../..');
const IN_PAGE = 'src/page/in-page';
/** The one module allowed to hand Playwright a function: one it compiled from a file of its folder. */
const HELPER = `${IN_PAGE}/in-page-script.ts`;

/** Methods of pages, frames, locators, handles and contexts that send a function's text into the page, with the function's argument index. */
const PAGE_FUNCTION_ARGUMENT: Record<string, number> = {
  evaluate: 0,
  evaluateHandle: 0,
  evaluateAll: 0,
  waitForFunction: 0,
  addInitScript: 0,
  evaluateOnNewDocument: 0,
  $eval: 1,
  $$eval: 1,
};
const BROWSER_API = /\/node_modules\/(playwright|playwright-core|puppeteer-core)\//;

const PASSES = 'hands the page a function';
const TEXT = 'takes the text of a function';

// Every way the scan knows, each on a line marked with what it must report; unmarked lines are allowed.
const FIXTURE = join(ROOT, 'test/unit/layout/in-page-violations.virtual.ts');
const FIXTURE_TEXT = `import type { Page } from 'playwright';
import { isImageDimension } from '../../../src/page/image-sizes.ts';
function named() { return document.title; }
const arrow = () => document.title;
export async function violations(page: Page, fns: { read: () => string }) {
  await page.evaluate(() => document.title); // ${PASSES}
  await page.evaluate(function () { return 1; }); // ${PASSES}
  await page.evaluate(named); // ${PASSES}
  await page.evaluate(arrow); // ${PASSES}
  await page.evaluate(isImageDimension, 1); // ${PASSES}
  await page.locator('a').evaluate(fns.read); // ${PASSES}
  await page.locator('a').evaluateAll((els) => els.length); // ${PASSES}
  await page.$eval('a', (a) => a.id); // ${PASSES}
  await page.mainFrame().waitForFunction(arrow); // ${PASSES}
  await page.context().addInitScript(named); // ${PASSES}
  await page.evaluateHandle(Math.random() > 0.5 ? arrow : 'document'); // ${PASSES}
  await page.evaluate(\`(\${named})()\`); // ${TEXT}
  await page.evaluate(String(arrow)); // ${TEXT}
  await page.evaluate(named.toString()); // ${TEXT}
  await page.evaluate('(' + arrow + ')()'); // ${TEXT}
  await page.evaluate(Function.prototype.toString.call(named)); // ${TEXT}
  await page.evaluate('document.title');
  await page.evaluate(\`document.\${'title'}\`);
  await page.$eval('a', 'a => a.id');
  return [String(named()), \`\${arrow()}\`, named() + arrow()];
}
`;

function isFunction(type: ts.Type): boolean {
  if (type.isUnion()) return type.types.some(isFunction);
  return type.getCallSignatures().length > 0 || type.getConstructSignatures().length > 0 || type.getSymbol()?.getName() === 'Function';
}

function isBrowserApi(type: ts.Type): boolean {
  if (type.isUnion()) return type.types.some(isBrowserApi);
  return (type.getSymbol()?.getDeclarations() ?? []).some((d) => BROWSER_API.test(d.getSourceFile().fileName));
}

/** `path:line: what` for each finding in the given files. */
function scan(program: ts.Program, files: string[]): string[] {
  const checker = program.getTypeChecker();
  const fn = (node: ts.Expression) => isFunction(checker.getTypeAtLocation(node));
  const found = new Set<string>();
  for (const file of files) {
    const source = program.getSourceFile(file)!;
    const path = relative(ROOT, file);
    const report = (node: ts.Node, what: string) => found.add(`${path}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${what}`);
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && path !== HELPER) {
        const index = PAGE_FUNCTION_ARGUMENT[node.expression.name.text];
        const arg = index === undefined ? undefined : node.arguments[index];
        if (arg && fn(arg) && isBrowserApi(checker.getTypeAtLocation(node.expression.expression))) report(arg, PASSES);
      }
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'String' && node.arguments[0] && fn(node.arguments[0])) {
        report(node, TEXT);
      }
      if (ts.isPropertyAccessExpression(node) && node.name.text === 'toString' && fn(node.expression)) report(node, TEXT);
      if (ts.isTemplateSpan(node) && fn(node.expression)) report(node, TEXT);
      if (
        ts.isBinaryExpression(node) &&
        [ts.SyntaxKind.PlusToken, ts.SyntaxKind.PlusEqualsToken].includes(node.operatorToken.kind) &&
        (fn(node.left) || fn(node.right))
      ) {
        report(node, TEXT);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return [...found].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
}

function programOf(files: string[]): ts.Program {
  const config = ts.getParsedCommandLineOfConfigFile(join(ROOT, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  if (!config) throw new Error('tsconfig.json cannot be read');
  const host = ts.createCompilerHost(config.options);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (name, language, ...rest) =>
    name === FIXTURE ? ts.createSourceFile(name, FIXTURE_TEXT, language) : getSourceFile.call(host, name, language, ...rest);
  host.fileExists = (name) => name === FIXTURE || fileExists.call(host, name);
  host.readFile = (name) => (name === FIXTURE ? FIXTURE_TEXT : readFile.call(host, name));
  return ts.createProgram([...files, FIXTURE], config.options, host);
}

it('no module hands a page a function or the text of one, and the scan finds each way of doing so', () => {
  const files = execFileSync('git', ['ls-files', '--', 'src', 'activities', 'workflows', 'bench'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(ROOT, f));
  expect(files.length).toBeGreaterThan(100);
  const program = programOf(files);
  expect(scan(program, files)).toEqual([]);

  const marked = FIXTURE_TEXT.split('\n').flatMap((line, i) => {
    const what = / \/\/ (.+)$/.exec(line)?.[1];
    return what ? [`${relative(ROOT, FIXTURE)}:${i + 1}: ${what}`] : [];
  });
  expect(marked.length).toBe(16);
  expect(scan(program, [FIXTURE])).toEqual(marked);
}, 180_000);

it('each script of src/page/in-page is one function that compiles, and a module of src uses it', () => {
  const scripts = readdirSync(join(ROOT, IN_PAGE)).filter((f) => f.endsWith('.js'));
  expect(scripts.length).toBeGreaterThan(0);
  const uses = execFileSync('git', ['grep', '-h', 'new InPageScript', '--', 'src'], { cwd: ROOT, encoding: 'utf8' });
  for (const file of scripts) {
    const text = readFileSync(join(ROOT, IN_PAGE, file), 'utf8');
    const statements = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS).statements;
    expect(
      statements.map((s) => ts.SyntaxKind[s.kind]),
      file,
    ).toEqual(['FunctionDeclaration']);
    // V8 compiles it as the page's Chromium will, and the Runtime.evaluate expression made of it.
    const script = new InPageScript(file);
    expect(() => new Script(script.expression(null as never))).not.toThrow();
    expect(uses, file).toContain(`'${file}'`);
  }
});
