import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { bwrapArgs } from '../../../src/features/browser-sessions/sandbox/bwrap-command.ts';
import { CappedOutput } from '../../../src/features/browser-sessions/sandbox/capped-output.ts';
import { cdpTarget } from '../../../src/features/browser-sessions/sandbox/cdp-bridge.ts';
import { parseReport } from '../../../src/features/browser-sessions/sandbox/runner-report.ts';
import { UidPool } from '../../../src/features/browser-sessions/sandbox/uid-pool.ts';
import { createSandbox } from '../../../src/features/browser-sessions/sandbox/sandbox.ts';
import { loadConfig } from '../../../src/config.ts';
import { createLogger } from '../../../src/platform/log.ts';

const settings = loadConfig().sandbox;

describe('CappedOutput', () => {
  it('keeps the first bytes up to the cap and says how many it dropped', () => {
    const stream = new PassThrough();
    const output = new CappedOutput(stream, 5);
    stream.write('abc');
    stream.write('defgh');
    stream.write('ij');
    expect(output.truncated).toBe(true);
    expect(output.text()).toBe('abcde\n[5 more bytes dropped: output is cut at 5 bytes (SANDBOX_MAX_OUTPUT_BYTES)]\n');
  });

  it('returns short output unchanged', () => {
    const stream = new PassThrough();
    const output = new CappedOutput(stream, 100);
    stream.write('hello');
    expect(output.text()).toBe('hello');
  });
});

describe('parseReport', () => {
  it("reads the runner's report line, and nothing after it", () => {
    expect(parseReport('{"result":"1","exitCode":0}\n')).toEqual({ result: '1', exitCode: 0 });
    expect(parseReport('{"exitCode":3}\n{"exitCode":0}\n')).toEqual({ exitCode: 3 });
  });

  it('answers {} for no report, a cut one or one that is no object', () => {
    expect(parseReport('')).toEqual({});
    expect(parseReport('{"result":"1","exi')).toEqual({});
    expect(parseReport('42\n')).toEqual({});
  });
});

describe('UidPool', () => {
  const dirs: string[] = [];
  const lockDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'uid-pool-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('gives each session its own uid, the same one again while it lasts, and reuses released ones', () => {
    const pool = new UidPool(1000, 2, lockDir());
    expect(pool.acquire('a')).toBe(1000);
    expect(pool.acquire('b')).toBe(1001);
    expect(pool.acquire('a')).toBe(1000);
    expect(() => pool.acquire('c')).toThrow(/SANDBOX_MAX_SESSIONS/);
    pool.release('a');
    expect(pool.acquire('c')).toBe(1000);
  });

  it('never gives two hosts of one machine the same uid, and takes over the claim of a host that is gone', () => {
    const dir = lockDir();
    const first = new UidPool(1000, 3, dir);
    const second = new UidPool(1000, 3, dir);
    expect(first.acquire('a')).toBe(1000);
    expect(second.acquire('a')).toBe(1001);
    // A claim left by a process that no longer exists (pid 2^22 + 1 is above Linux's pid_max).
    writeFileSync(join(dir, '1002'), String(2 ** 22 + 1));
    expect(second.acquire('b')).toBe(1002);
  });

  it('refuses a lock directory others may write', () => {
    const dir = lockDir();
    chmodSync(dir, 0o777);
    expect(() => new UidPool(1000, 3, dir)).toThrow(/no one else may write/);
  });
});

describe('cdpTarget', () => {
  it("takes the browser's host, port and DevTools path", () => {
    expect(cdpTarget('ws://127.0.0.1:9222/devtools/browser/abc')).toEqual({ host: '127.0.0.1', port: 9222, browserPath: '/devtools/browser/abc' });
  });

  it('refuses a URL without a port or of another scheme', () => {
    expect(() => cdpTarget('ws://127.0.0.1/devtools/browser/abc')).toThrow(/cdpUrl/);
    expect(() => cdpTarget('file:///etc/passwd')).toThrow(/cdpUrl/);
  });
});

describe('bwrapArgs', () => {
  const plan = {
    user: { uid: 2_000_000_007, gid: 2_000_000_007 },
    mounts: [{ source: '/opt/thing', target: '/sandbox/deep/thing' }],
    cpuSeconds: 31,
    command: ['/bin/true'],
  };

  it('unshares every namespace, network included, and drops to the uid with no way back', () => {
    const args = bwrapArgs(settings, plan);
    for (const flag of ['--unshare-pid', '--unshare-net', '--unshare-ipc', '--unshare-uts', '--die-with-parent', '--new-session']) expect(args).toContain(flag);
    expect(args).not.toContain('--share-net');
    const command = args.slice(args.indexOf('--') + 1);
    expect(command.slice(0, 8)).toEqual([
      '/usr/bin/setpriv',
      '--reuid=2000000007',
      '--regid=2000000007',
      '--clear-groups',
      '--no-new-privs',
      '--inh-caps=-all',
      '--bounding-set=-all',
      '--',
    ]);
    expect(command).toContain(`--as=${settings.memoryBytes}`);
    expect(command).toContain(`--nproc=${settings.maxProcesses}`);
    expect(command).toContain(`--fsize=${settings.maxFileBytes}`);
    expect(command).toContain('--cpu=31');
    expect(command.at(-1)).toBe('/bin/true');
  });

  it('mounts read-only, makes the directories above a mount crossable, and gives /tmp its size', () => {
    const args = bwrapArgs(settings, plan).join(' ');
    expect(args).toContain('--ro-bind /opt/thing /sandbox/deep/thing');
    expect(args).toContain('--perms 0755 --dir /sandbox --perms 0755 --dir /sandbox/deep');
    expect(args).toContain(`--perms 1777 --size ${settings.tmpBytes} --tmpfs /tmp`);
    expect(args).not.toMatch(/--bind \/(work|root|home)/);
  });

  it('uses a user namespace instead when the host is not root', () => {
    const args = bwrapArgs(settings, { ...plan, user: undefined });
    expect(args).toContain('--unshare-user');
    expect(args).not.toContain('/usr/bin/setpriv');
  });
});

describe('createSandbox', () => {
  it('stops at once, naming what to install, when bubblewrap is missing', () => {
    expect(() => createSandbox({ ...settings, bwrapPath: '/nonexistent/bwrap' }, createLogger('error'))).toThrow(
      '/nonexistent/bwrap is missing: browser-session executes need bubblewrap (Debian: apt-get install bubblewrap; or set SANDBOX_BWRAP_PATH)',
    );
  });
});
