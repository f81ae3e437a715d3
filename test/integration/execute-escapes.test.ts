// Executed code is hostile. Each test here is an escape a caller would try from
// inside an execute, and shows the refusal: the service's environment and files,
// PostgreSQL and Temporal, another session's browser, private and public
// addresses, privileges, and the resources of the host (processes, memory,
// disk, CPU time).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { executeResponse } from '../../src/features/browser-sessions/sandbox/execute-answer.ts';
import { createSandbox, type Sandbox } from '../../src/features/browser-sessions/sandbox/sandbox.ts';
import type { ExecuteLanguage } from '../../src/features/browser-sessions/protocol/execute-limits.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/platform/log.ts';
import { startDebugChromium, type DebugChromium } from '../support/debug-chromium.ts';
import { page, startFixtureSite, type FixtureSite } from '../support/fixture-site.ts';

const SECRET = `secret-${randomBytes(8).toString('hex')}`;
const SECRET_FILE = resolve(`.execute-escape-${randomBytes(4).toString('hex')}`);
const settings = loadConfig().sandbox;

let mine: DebugChromium;
let other: DebugChromium;
let site: FixtureSite;
let sandbox: Sandbox;
let sessionDir: string;

function run(language: ExecuteLanguage, code: string, timeoutMs = 20_000) {
  return sandbox.run({ sessionId: 'hostile', language, code, timeoutMs, cdpUrl: mine.cdpUrl, sessionDir });
}

/** Node code that tries a TCP connection to each target and answers what happened to each. */
/**
 * Code that connects to each target and answers how each attempt ended. The sandbox's own loopback
 * has one listener, the runner's CDP relay on an ephemeral port (the session's browser's one door): a
 * loopback target whose port it happens to have is that relay, answered OWN_RELAY, not an escape.
 */
function connectAll(targets: { host: string; port: number }[]): string {
  return `
    const net = require('node:net');
    const listening = new Set(['/proc/net/tcp', '/proc/net/tcp6'].flatMap((file) => {
      try { return require('node:fs').readFileSync(file, 'utf8').split('\\n').slice(1); } catch { return []; }
    }).map((line) => line.trim().split(/\\s+/)).filter((f) => f[3] === '0A').map((f) => parseInt(f[1].split(':')[1], 16)));
    const attempt = ({ host, port }) => new Promise((resolve) => {
      if ((host === '127.0.0.1' || host === '::1') && listening.has(port)) return resolve(host + ':' + port + ' OWN_RELAY');
      const socket = net.connect({ host, port });
      const done = (what) => { socket.destroy(); resolve(host + ':' + port + ' ' + what); };
      socket.once('connect', () => done('CONNECTED'));
      socket.once('error', (e) => done(e.code));
      socket.setTimeout(3000, () => done('TIMEOUT'));
    });
    ({ answers: await Promise.all(${JSON.stringify(targets)}.map(attempt)), listening: [...listening] })`;
}

beforeAll(async () => {
  process.env.EXECUTE_ESCAPE_SECRET = SECRET;
  writeFileSync(SECRET_FILE, SECRET);
  [mine, other, site] = await Promise.all([
    startDebugChromium(),
    startDebugChromium(),
    startFixtureSite({ '/': page('Fixture', '<p>hi</p>') }, { listen: '0.0.0.0' }),
  ]);
  sessionDir = mkdtempSync(join(tmpdir(), 'execute-hostile-'));
  writeFileSync(join(sessionDir, 'host-side-file'), SECRET);
  sandbox = createSandbox(settings, createLogger('warn'));
});

afterAll(async () => {
  delete process.env.EXECUTE_ESCAPE_SECRET;
  rmSync(SECRET_FILE, { force: true });
  await sandbox?.endSession('hostile', sessionDir);
  await Promise.all([mine?.close(), other?.close(), site?.close()]);
  rmSync(sessionDir, { recursive: true, force: true });
});

describe("the service's secrets", () => {
  it('are not in the environment of node, python or bash', async () => {
    const node = await run('node', 'JSON.stringify(process.env)');
    expect(node.exitCode).toBe(0);
    expect(node.result).not.toContain(SECRET);
    expect(Object.keys(JSON.parse(node.result!)).sort()).toEqual([
      'EXECUTE_CDP_PATH',
      'EXECUTE_CDP_SOCKET',
      'EXECUTE_MAX_RESULT_CHARS',
      'HOME',
      'LANG',
      'PATH',
      'PWD',
      'TMPDIR',
    ]);
    const python = await run('python', 'import os\ndict(os.environ)');
    expect(python.exitCode).toBe(0);
    expect(python.result).not.toContain(SECRET);
    const bash = await run('bash', 'env');
    expect(bash.exitCode).toBe(0);
    expect(bash.stdout).not.toContain(SECRET);
  });

  it('are not in any process the sandbox can see; /proc/1/environ (bwrap, root) is refused', async () => {
    const bash = await run(
      'bash',
      `cat /proc/1/environ; echo "status=$?"; for f in /proc/[0-9]*/environ /proc/[0-9]*/cmdline; do cat "$f" 2>/dev/null; done | tr '\\0' '\\n' | grep -c 'secret-[0-9a-f]\\{16\\}'`,
    );
    expect(bash.stdout).toMatch(/status=1\n0\n$/);
    expect(bash.stderr).toContain('/proc/1/environ: Permission denied');
    // The host's own processes are in another pid namespace: the sandbox sees its own few only.
    const pids = await run('bash', 'ls -d /proc/[0-9]* | wc -l');
    expect(Number(pids.stdout.trim())).toBeLessThan(10);
  });

  it("cannot read the repository, the service's data or the session's host directory: none of it is mounted", async () => {
    const outcome = await run(
      'node',
      `
      const fs = require('node:fs');
      const tries = {};
      for (const path of ${JSON.stringify([SECRET_FILE, process.cwd(), resolve('.data'), sessionDir, join(sessionDir, 'host-side-file'), '/etc/passwd', '/etc/shadow', '/root', '/work'])}) {
        try { tries[path] = fs.statSync(path).isDirectory() ? fs.readdirSync(path).join(',') : fs.readFileSync(path, 'utf8'); } catch (e) { tries[path] = e.code; }
      }
      ({ tries, root: fs.readdirSync('/').sort(), sandbox: fs.readdirSync('/sandbox').sort() })`,
    );
    expect(outcome.exitCode).toBe(0);
    const { tries, root, sandbox: sandboxDir } = JSON.parse(outcome.result!);
    for (const answer of Object.values(tries)) expect(answer).toBe('ENOENT');
    expect(outcome.result).not.toContain(SECRET);
    expect(root).toEqual(expect.arrayContaining(['proc', 'sandbox', 'tmp', 'usr']));
    expect(root.filter((d: string) => !['bin', 'dev', 'etc', 'lib', 'lib32', 'lib64', 'libx32', 'proc', 'sandbox', 'sbin', 'tmp', 'usr'].includes(d))).toEqual(
      [],
    );
    expect(sandboxDir).toEqual(['bin', 'bridge', 'node_modules', 'runtime']);
  });

  it('cannot write outside its private /tmp', async () => {
    const bash = await run('bash', 'for d in /sandbox/runtime /usr /etc /; do touch "$d/x" 2>/dev/null && echo "wrote $d"; done; touch /tmp/x && echo tmp-ok');
    expect(bash.stdout).toBe('tmp-ok\n');
  });
});

describe('privileges', () => {
  it('runs as an unprivileged uid of its own, with no capabilities and no way to gain any', async () => {
    const bash = await run('bash', 'id -u; grep -E "^(CapEff|CapPrm|CapBnd|CapAmb|NoNewPrivs)" /proc/self/status');
    const [uid, ...caps] = bash.stdout.trim().split('\n');
    expect(Number(uid)).toBeGreaterThanOrEqual(settings.uidBase);
    expect(caps.map((l) => l.replace(/\s+/g, ' ')).sort()).toEqual([
      'CapAmb: 0000000000000000',
      'CapBnd: 0000000000000000',
      'CapEff: 0000000000000000',
      'CapPrm: 0000000000000000',
      'NoNewPrivs: 1',
    ]);
  });
});

describe('the network', () => {
  it("reaches neither PostgreSQL, Temporal, another session's browser, its own browser directly, nor any other address", async () => {
    const pg = new URL(inject('databaseUrl'));
    const temporalPort = Number(inject('temporalAddress').split(':').at(-1));
    const hostAddresses = Object.values(networkInterfaces())
      .flat()
      .filter((a) => a && a.family === 'IPv4' && !a.internal)
      .map((a) => a!.address);
    const targets = [
      { host: '127.0.0.1', port: Number(pg.port) },
      { host: '127.0.0.1', port: temporalPort },
      { host: '127.0.0.1', port: other.port },
      { host: '127.0.0.1', port: mine.port },
      { host: '127.0.0.1', port: site.port },
      ...hostAddresses.flatMap((host) => [
        { host, port: Number(pg.port) },
        { host, port: site.port },
      ]),
      { host: '10.0.0.1', port: 80 },
      { host: '192.168.1.1', port: 80 },
      { host: '169.254.169.254', port: 80 },
      { host: '1.1.1.1', port: 443 },
      { host: '::1', port: Number(pg.port) },
    ];
    const outcome = await run('node', connectAll(targets));
    expect(outcome.exitCode).toBe(0);
    const { answers, listening }: { answers: string[]; listening: number[] } = JSON.parse(outcome.result!);
    // The relay is seen: a target on its port would be told apart.
    expect(listening).toHaveLength(1);
    expect(answers).toHaveLength(targets.length);
    for (const answer of answers) expect(answer).toMatch(/ (ECONNREFUSED|ENETUNREACH|EADDRNOTAVAIL|OWN_RELAY)$/);
    // At most one target can share the relay's port by chance; more would be listeners that should not be there.
    expect(answers.filter((a) => a.endsWith('OWN_RELAY')).length).toBeLessThanOrEqual(1);
    const dns = await run('node', `await require('node:dns/promises').lookup('example.com').then(() => 'resolved', (e) => e.code)`);
    expect(dns.result).not.toBe('resolved');
  });

  it('from python and bash alike', async () => {
    const pgPort = new URL(inject('databaseUrl')).port;
    const python = await run(
      'python',
      `import socket\ntry:\n    socket.create_connection(("127.0.0.1", ${pgPort}), timeout=3)\n    outcome = "CONNECTED"\nexcept OSError as e:\n    outcome = type(e).__name__\noutcome`,
    );
    expect(python.result).toBe('ConnectionRefusedError');
    const bash = await run('bash', `exec 3<>/dev/tcp/127.0.0.1/${pgPort} && echo CONNECTED`);
    expect(bash.stdout).toBe('');
    expect(bash.exitCode).not.toBe(0);
  });

  it("the CDP bridge leads to the session's own browser whatever the request names", async () => {
    const otherId = new URL(other.cdpUrl).pathname;
    const outcome = await run(
      'node',
      `
      const socket = require('node:net').connect(process.env.EXECUTE_CDP_SOCKET);
      socket.write('GET /json/version HTTP/1.1\\r\\nHost: 127.0.0.1:${other.port}\\r\\nConnection: close\\r\\n\\r\\n');
      let text = '';
      // Chromium keeps the connection open: the answer is complete at the end of its JSON.
      for await (const chunk of socket) if ((text += chunk).trimEnd().endsWith('}')) break;
      socket.destroy();
      text`,
    );
    expect(outcome.result).toContain(new URL(mine.cdpUrl).pathname);
    expect(outcome.result).not.toContain(otherId);
  });
});

describe('resources', () => {
  it('a fork bomb hits the process limit and ends; the session keeps working', async () => {
    const started = Date.now();
    const bomb = executeResponse(await run('bash', 'ulimit -u; bomb() { bomb | bomb & }; bomb; sleep 2; echo still-here', 8000));
    expect(bomb.stdout?.split('\n')[0]).toBe(String(settings.maxProcesses));
    expect(Date.now() - started).toBeLessThan(20_000);
    expect((await run('node', '1 + 1')).result).toBe('2');
  });

  it('a memory hog fails to allocate past the address-space limit instead of taking the host down', async () => {
    const node = executeResponse(await run('node', 'const held = []; for (;;) held.push(Buffer.alloc(256 * 1024 * 1024, 1));'));
    expect(node.killed).toBe(false);
    expect(node.exitCode).not.toBe(0);
    expect(node.error).toMatch(/RangeError|memory/i);
    const python = executeResponse(await run('python', `blob = bytearray(${settings.memoryBytes})`));
    expect(python).toMatchObject({ killed: false, exitCode: 1, error: 'MemoryError: ' });
    expect((await run('bash', 'ulimit -v')).stdout.trim()).toBe(String(settings.memoryBytes / 1024));
  });

  it('a huge file stops at the file-size limit', async () => {
    const bash = await run('bash', `head -c ${settings.maxFileBytes * 2} /dev/zero > /tmp/huge; echo "status=$?"; stat -c %s /tmp/huge`);
    expect(bash.stdout).toBe(`status=153\n${settings.maxFileBytes}\n`);
    expect(bash.stderr).toMatch(/File size limit exceeded/);
  });

  it('an infinite loop is killed at the timeout', async () => {
    const started = Date.now();
    const body = executeResponse(await run('node', 'for (;;) {}', 2000));
    expect(body).toMatchObject({ success: true, killed: true, exitCode: 137 });
    expect(Date.now() - started).toBeLessThan(8000);
    expect((await run('python', '"alive"')).result).toBe('alive');
  });

  it('output and results past the cap are dropped, not buffered', async () => {
    const outcome = await run('bash', `head -c ${settings.maxOutputBytes * 3} /dev/zero | tr '\\0' 'a'`);
    expect(outcome.exitCode).toBe(0);
    expect(outcome.stdout.length).toBeLessThan(settings.maxOutputBytes + 200);
    expect(outcome.stdout).toContain('SANDBOX_MAX_OUTPUT_BYTES');
    for (const language of ['node', 'python'] as const) {
      const size = settings.maxOutputBytes * 3;
      const big = await run(language, language === 'node' ? `'b'.repeat(${size})` : `'b' * ${size}`);
      expect(big.exitCode).toBe(0);
      expect(big.result!.startsWith('b'.repeat(1000))).toBe(true);
      expect(big.result!.length).toBeLessThan(settings.maxOutputBytes + 200);
      expect(big.result).toContain(`${settings.maxOutputBytes * 2} more characters dropped`);
    }
  });
});
