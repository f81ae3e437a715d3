// Executes against a real Chromium (DevTools on 127.0.0.1, started as a
// session's host starts it) and a local page: each language's happy path, the
// last expression as `result`, top-level await, agent-browser refs kept from
// one execute to the next, a TimeoutError inside the code, and the kill at the
// timeout.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { executeResponse } from '../../src/features/browser-sessions/sandbox/execute-answer.ts';
import { createSandbox, type Sandbox } from '../../src/features/browser-sessions/sandbox/sandbox.ts';
import type { ExecuteLanguage } from '../../src/features/browser-sessions/protocol/execute-limits.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/platform/log.ts';
import { startDebugChromium, type DebugChromium } from '../support/debug-chromium.ts';
import { page, startFixtureSite, type FixtureSite } from '../support/fixture-site.ts';
import { waitFor } from '../support/wait-for.ts';

let chromium: DebugChromium;
let site: FixtureSite;
let sandbox: Sandbox;
let sessionDir: string;
const SESSION = 'session-happy';

function run(language: ExecuteLanguage, code: string, timeoutMs = 30_000) {
  return sandbox.run({ sessionId: SESSION, language, code, timeoutMs, cdpUrl: chromium.cdpUrl, sessionDir });
}

/** The command names (or command lines) of the processes on the machine running as the given uid. */
function processesOf(uid: number, what: 'comm' | 'cmdline' = 'comm'): string[] {
  const names: string[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (statSync(`/proc/${name}`).uid === uid) names.push(readFileSync(`/proc/${name}/${what}`, 'utf8').replaceAll('\0', ' ').trim());
    } catch {
      // Ended while we looked.
    }
  }
  return names;
}

beforeAll(async () => {
  if (!process.env.PYTHON_PACKAGES_PATH) throw new Error('PYTHON_PACKAGES_PATH is not set: run the tests with `npm test`, which installs Python Playwright');
  [chromium, site] = await Promise.all([
    startDebugChromium(),
    startFixtureSite({
      '/': page('Fixture home', '<h1 id="greeting">Hello sandbox</h1>'),
      '/button': page('Before click', `<button onclick="document.title = 'Clicked ' + (++window.clicks || (window.clicks = 1))">Press me</button>`),
      '/slow': page('Slow', '<p>nothing to wait for</p>'),
    }),
  ]);
  sessionDir = mkdtempSync(join(tmpdir(), 'execute-session-'));
  sandbox = createSandbox(loadConfig().sandbox, createLogger('warn'));
});

afterAll(async () => {
  await sandbox?.endSession(SESSION, sessionDir);
  await Promise.all([chromium?.close(), site?.close()]);
  rmSync(sessionDir, { recursive: true, force: true });
});

describe('node', () => {
  it('runs with page bound, top-level await, console output in stdout and the last expression as result', async () => {
    const outcome = await run(
      'node',
      `await page.goto(${JSON.stringify(site.url)});\nconsole.log('title is', await page.title());\nconst text = await page.textContent('#greeting');\n({ text, pages: context.pages().length, connected: browser.isConnected() })`,
    );
    const body = executeResponse(outcome);
    expect(body).toMatchObject({ success: true, stdout: 'title is Fixture home\n', stderr: '', exitCode: 0, killed: false, error: null });
    expect(JSON.parse(body.result!)).toEqual({ text: 'Hello sandbox', pages: 1, connected: true });
  });

  it('answers a string result as is, and stdout as result when the last statement is no expression', async () => {
    expect((await run('node', `await page.title()`)).result).toBe('Fixture home');
    const printed = await run('node', `console.log('only printed'); const x = 1;`);
    expect(printed.result).toBe('only printed\n');
  });

  it('reports a TimeoutError inside the code as error text with success true, not as a kill', async () => {
    const body = executeResponse(await run('node', `await page.waitForSelector('#never', { timeout: 300 })`));
    expect(body.success).toBe(true);
    expect(body.killed).toBe(false);
    expect(body.exitCode).toBe(1);
    expect(body.error).toMatch(/^TimeoutError: page\.waitForSelector: Timeout 300ms exceeded/);
    expect(body.stderr).toContain('TimeoutError');
  });

  it('answers with all the output written before the end, more than a pipe holds at once', async () => {
    const body = executeResponse(await run('node', `process.stdout.write('o'.repeat(600_000)); process.stderr.write('e'.repeat(600_000)); 'done'`));
    expect(body).toMatchObject({ result: 'done', exitCode: 0 });
    expect([body.stdout?.length, body.stderr?.length]).toEqual([600_000, 600_000]);
  });

  it('reports a syntax error', async () => {
    const body = executeResponse(await run('node', 'const = 1'));
    expect(body.exitCode).toBe(1);
    expect(body.error).toMatch(/^SyntaxError: /);
  });

  it('kills the run at the timeout: killed true, error set, and the next run works', async () => {
    const started = Date.now();
    const body = executeResponse(await run('node', `console.log('started'); await new Promise(() => {})`, 1500));
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(body).toMatchObject({ success: true, killed: true, exitCode: 137 });
    expect(body.error).toMatch(/timed out/);
    expect((await run('node', '6 * 7')).result).toBe('42');
  });
});

describe('python', () => {
  it('runs async Playwright with page bound, top-level await and the last expression as result', async () => {
    const outcome = await run(
      'python',
      `await page.goto(${JSON.stringify(site.url)})\nprint("title is", await page.title())\nawait page.text_content("#greeting")`,
    );
    expect(executeResponse(outcome)).toMatchObject({
      success: true,
      stdout: 'title is Fixture home\n',
      result: 'Hello sandbox',
      exitCode: 0,
      killed: false,
      error: null,
    });
    expect((await run('python', '{"answer": 6 * 7}')).result).toBe('{"answer": 42}');
  });

  it('reports a Playwright TimeoutError as error text with success true', async () => {
    const body = executeResponse(await run('python', `await page.wait_for_selector("#never", timeout=300)`));
    expect(body).toMatchObject({ success: true, killed: false, exitCode: 1 });
    expect(body.error).toMatch(/^TimeoutError: Page\.wait_for_selector: Timeout 300ms exceeded/);
  });

  it('kills the run at the timeout', async () => {
    const body = executeResponse(await run('python', 'import time\nwhile True:\n    time.sleep(0.1)', 1500));
    expect(body).toMatchObject({ killed: true, exitCode: 137 });
  });
});

describe('bash', () => {
  it('keeps agent-browser attached across executes: snapshot in one, click @ref in the next', async () => {
    const opened = await run('bash', `agent-browser open ${new URL('/button', site.url)} >/dev/null && agent-browser snapshot`);
    expect(opened).toMatchObject({ exitCode: 0, killed: false });
    const ref = /button "Press me" \[ref=(e\d+)\]/.exec(opened.stdout)?.[1];
    expect(ref, opened.stdout + opened.stderr).toBeDefined();
    const clicked = await run('bash', `agent-browser click @${ref} && agent-browser get title`);
    expect(clicked.stderr).toBe('');
    expect(clicked.exitCode).toBe(0);
    expect(clicked.stdout).toContain('Clicked 1');
    expect(clicked.result).toBe(clicked.stdout);
    // The same tab, seen from node: agent-browser drove the session's browser.
    expect((await run('node', 'await page.title()')).result).toBe('Clicked 1');
  });

  it('reports a failing command with its exit code and stderr as error', async () => {
    const body = executeResponse(await run('bash', 'echo partial; echo broken >&2; exit 3'));
    expect(body).toMatchObject({ success: true, stdout: 'partial\n', stderr: 'broken\n', exitCode: 3, killed: false, error: 'broken' });
  });

  it('runs the script as a file with an empty stdin, whatever it reads', async () => {
    const body = executeResponse(await run('bash', 'echo "$0"; cat; read -r line; echo "read=$?"'));
    expect(body).toMatchObject({ stdout: '/sandbox/code.sh\nread=1\n', stderr: '', exitCode: 0, killed: false });
  });

  it('kills everything the run started at the timeout, setsid and background children included', async () => {
    const body = executeResponse(await run('bash', 'setsid sleep 1000 & (sleep 1000 &) ; sleep 1000', 1500));
    expect(body).toMatchObject({ killed: true, exitCode: 137 });
    const uid = Number((await run('node', 'process.getuid()')).result);
    // The kernel tears the killed pid namespace down after bwrap has exited: give it a moment, not forever.
    await vi.waitFor(() => expect(processesOf(uid)).not.toContain('sleep'), { timeout: 5_000, interval: 50 });
  });
});

describe("the session's browser", () => {
  it('serves executes again once the browser is back under another URL', async () => {
    const replacement = await startDebugChromium();
    try {
      const onReplacement = (language: ExecuteLanguage, code: string) =>
        sandbox.run({ sessionId: SESSION, language, code, timeoutMs: 30_000, cdpUrl: replacement.cdpUrl, sessionDir });
      expect((await onReplacement('node', 'page.url()')).result).toBe('about:blank');
      expect((await onReplacement('python', 'page.url')).result).toBe('about:blank');
      expect((await onReplacement('bash', 'agent-browser get url')).stdout.trim()).toBe('about:blank');
    } finally {
      await replacement.close();
    }
    expect((await run('node', 'page.url()')).result).toBe(new URL('/button', site.url).href);
  });
});

describe('warmUp', () => {
  it("starts a session's node runner before its first execute", async () => {
    const ref = { sessionId: 'session-warm', cdpUrl: chromium.cdpUrl, sessionDir: mkdtempSync(join(tmpdir(), 'execute-session-')) };
    try {
      await sandbox.warmUp(ref);
      // bash starts no node runner (only the agent-browser daemon): a runner of this uid is warmUp's.
      const uid = Number((await sandbox.run({ ...ref, language: 'bash', code: 'id -u', timeoutMs: 30_000 })).stdout);
      expect(processesOf(uid, 'cmdline').filter((c) => c.includes('node-runner.ts'))).toHaveLength(1);
      expect((await sandbox.run({ ...ref, language: 'node', code: 'page.url()', timeoutMs: 30_000 })).exitCode).toBe(0);
    } finally {
      await sandbox.endSession(ref.sessionId, ref.sessionDir);
      rmSync(ref.sessionDir, { recursive: true, force: true });
    }
  });
});

describe('the next runner', () => {
  it('starts after a short run has answered, and beside a run that goes on', async () => {
    const ref = { sessionId: 'session-next', cdpUrl: chromium.cdpUrl, sessionDir: mkdtempSync(join(tmpdir(), 'execute-session-')) };
    const node = (code: string) => sandbox.run({ ...ref, language: 'node', code, timeoutMs: 30_000 });
    try {
      const uid = Number((await node('process.getuid()')).result);
      const runners = () => processesOf(uid, 'cmdline').filter((c) => c.includes('node-runner.ts')).length;
      await waitFor('the spare after a short run', () => runners() === 1);
      // The spare takes this run; the next one starts while it sleeps, long before it answers.
      const long = node('await new Promise((resolve) => setTimeout(resolve, 5_000)); 2');
      await waitFor('a spare beside the running runner', () => runners() === 2);
      expect((await long).result).toBe('2');
    } finally {
      await sandbox.endSession(ref.sessionId, ref.sessionDir);
      rmSync(ref.sessionDir, { recursive: true, force: true });
    }
  });
});

describe('endSession', () => {
  it("ends the session's daemon and runners: no process of its uid is left", async () => {
    const other = 'session-ended';
    const dir = mkdtempSync(join(tmpdir(), 'execute-session-'));
    const runOther = (language: ExecuteLanguage, code: string) =>
      sandbox.run({ sessionId: other, language, code, timeoutMs: 30_000, cdpUrl: chromium.cdpUrl, sessionDir: dir });
    await runOther('bash', 'agent-browser get url');
    const uid = (await runOther('node', 'process.getuid()')).result;
    await runOther('python', '1');
    expect(Number(uid)).toBeGreaterThanOrEqual(loadConfig().sandbox.uidBase);
    expect(processesOf(Number(uid)).length).toBeGreaterThan(0);
    // An execute still running when the session ends is ended with it.
    const inFlight = runOther('bash', 'sleep 1000');
    await new Promise((resolve) => setTimeout(resolve, 500));
    await sandbox.endSession(other, dir);
    expect(processesOf(Number(uid))).toEqual([]);
    expect(await inFlight).toMatchObject({ killed: false, exitCode: 137 });
    rmSync(dir, { recursive: true, force: true });
  });
});
