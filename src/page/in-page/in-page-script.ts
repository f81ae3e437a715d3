// Code that runs inside a page is plain JavaScript: a file of this folder holding
// one function, read as text when the process starts. Playwright hands a function
// to the page as its source text (Function.prototype.toString), so a function
// written in a TypeScript module would reach the page as the loader running the
// service rewrote it: under tsx (which npm start once used) esbuild's keepNames wrapped
// named inner functions in calls to a `__name` helper that the worker has and the page
// has not ("ReferenceError: __name is not defined"), while the test runner's transform
// added no such call. The function here is compiled by V8 from the file's own text,
// so the page gets that text whatever runs the service. ESLint checks these files
// against the browser's globals alone; test/unit/layout/in-page-code.test.ts checks
// that no other module hands a page a function or the text of one.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import type { JSHandle, Page } from 'playwright';

/** The source as one expression; the newline ends a trailing line comment before the closing parenthesis. */
const parenthesized = (source: string) => `(${source}\n)`;

/** A function of this folder: called in the page with an `Arg` (JSON values and element handles), it returns a `Result`. */
export class InPageScript<Arg, Result> {
  /** The file's text: one function (comments around it allowed). */
  readonly source: string;
  readonly #fn: (arg: unknown) => Result;

  /** Reads and compiles `file` (a name in this folder); a file that is not exactly one function fails here, at start-up. */
  constructor(file: string) {
    const path = fileURLToPath(new URL(file, import.meta.url));
    this.source = readFileSync(path, 'utf8');
    // Compiling evaluates nothing but the function expression; the page runs the function.
    const fn: unknown = new Script(parenthesized(this.source), { filename: path }).runInThisContext();
    if (typeof fn !== 'function') throw new Error(`${path} must hold one function, not ${typeof fn}`);
    this.#fn = fn as (arg: unknown) => Result;
  }

  /** Runs it in the page's own world and answers its value (a promise's, when it returns one), copied out of the page. */
  run(page: Page, arg: Arg): Promise<Result> {
    return page.evaluate(this.#fn, arg);
  }

  /** Runs it in the page's own world; what it returns stays in the page, as a handle (an element, say). */
  handle(page: Page, arg: Arg): Promise<JSHandle<Result>> {
    return page.evaluateHandle(this.#fn, arg);
  }

  /** An expression that calls it with `arg`, for the DevTools protocol's Runtime.evaluate; `arg` must survive JSON. */
  expression(arg: Arg): string {
    return `${parenthesized(this.source)}(${JSON.stringify(arg)})`;
  }
}
