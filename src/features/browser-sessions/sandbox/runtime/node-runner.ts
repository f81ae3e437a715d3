// Runs inside a session's sandbox: attaches Playwright to the session's browser
// first (a warm runner waits here, already attached), then reads the caller's
// JavaScript from stdin until it ends, runs it with `page`, `context` and
// `browser` bound and top-level await allowed, and reports the value of its
// last expression on REPORT_FD (runner-report.ts). One run per process: the host
// kills the whole sandbox at the timeout and starts the next runner.
import { createWriteStream } from 'node:fs';
import { createRequire } from 'node:module';
import { parse } from 'acorn';
import { chromium } from 'playwright-core';
import { startCdpRelay } from './cdp-relay.ts';
import { REPORT_FD } from './sandbox-paths.ts';
import { capResult, describeError, showValue } from './show-value.ts';

const report = createWriteStream('', { fd: REPORT_FD });

/** Resolves once everything written to the stream so far has left the process (a write the pipe had no room for is queued). */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => stream.write('', () => resolve()));
}

/** Reports on one line, whose end tells the host the run is over (so the output goes first), and exits. */
function finish(payload: { result?: string | null; error?: string | null; fatal?: string }, exitCode: number): void {
  void Promise.all([flushed(process.stdout), flushed(process.stderr)]).then(() =>
    report.end(`${JSON.stringify({ ...payload, exitCode })}\n`, () => process.exit(exitCode)),
  );
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The code as the body of an async function whose return value is that of the code's last expression. */
function asFunctionBody(code: string): string {
  const program = parse(code, { ecmaVersion: 'latest', sourceType: 'script', allowAwaitOutsideFunction: true, allowReturnOutsideFunction: true });
  const last = program.body.at(-1);
  if (last?.type !== 'ExpressionStatement') return code;
  const { expression } = last;
  return `${code.slice(0, last.start)}return (${code.slice(expression.start, expression.end)});${code.slice(last.end)}`;
}

/** The stack as Node prints an uncaught error: Playwright's stacks begin with the message alone. */
function stackOf(err: unknown): string {
  if (!(err instanceof Error) || !err.stack) return describeError(err);
  return err.stack.startsWith(`${err.name}:`) ? err.stack : `${err.name}: ${err.stack}`;
}

const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (...args: string[]) => (...values: unknown[]) => Promise<unknown>;

async function main(): Promise<void> {
  const browserPath = process.env.EXECUTE_CDP_PATH ?? '';
  let browser;
  try {
    browser = await chromium.connectOverCDP(await startCdpRelay(browserPath), { timeout: 15_000 });
  } catch (err) {
    finish({ fatal: `could not attach to the session's browser: ${describeError(err)}` }, 70);
    return;
  }
  // A runner waiting for code whose browser went away is of no use: it ends, and the host starts a fresh one.
  const onDisconnect = () => finish({ fatal: "the session's browser closed the connection" }, 70);
  browser.once('disconnected', onDisconnect);
  // The parser's first use compiles it (2 ms): done while waiting, not on the caller's time.
  asFunctionBody('const value = await Promise.resolve({ a: [1, "x"] }); `${value.a}`');
  const code = await readStdin();
  browser.off('disconnected', onDisconnect);
  const context = browser.contexts()[0] ?? (await browser.newContext());
  const page = context.pages()[0] ?? (await context.newPage());
  let body: string;
  try {
    body = asFunctionBody(code);
  } catch (err) {
    process.stderr.write(`${describeError(err)}\n`);
    finish({ error: describeError(err) }, 1);
    return;
  }
  try {
    const run = new AsyncFunction('page', 'context', 'browser', 'require', body);
    const value = await run(page, context, browser, createRequire(import.meta.url));
    finish({ result: capResult(showValue(value), Number(process.env.EXECUTE_MAX_RESULT_CHARS)) }, 0);
  } catch (err) {
    process.stderr.write(`${stackOf(err)}\n`);
    finish({ error: describeError(err) }, 1);
  }
}

process.on('unhandledRejection', (err) => {
  process.stderr.write(`Unhandled rejection: ${describeError(err)}\n`);
});

await main();
