import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkChromiumStarts, chromiumLaunch, runsAsRoot, type ChromiumSettings } from '../../../src/platform/browser/chromium-launch.ts';

const SETTINGS: ChromiumSettings = {
  path: '/usr/lib/chromium/chromium-headless-shell',
  headless: true,
  sandbox: true,
  user: 'nobody',
  environment: { PATH: '/usr/bin:/bin', HOME: '/root', LANG: 'C.UTF-8', XDG_RUNTIME_DIR: '/run/user/0' },
};

// Readable by the user a root test drops to.
const dir = mkdtempSync(join(tmpdir(), 'chromium-launch-test-'));
chmodSync(dir, 0o755);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function fakeChromium(name: string, stderr: string): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\necho '${stderr}' >&2\nexit 1\n`, { mode: 0o755 });
  return path;
}

describe('chromiumLaunch', () => {
  it('keeps the sandbox on and sends everything, loopback included, through the proxy with no UDP around it', () => {
    const options = chromiumLaunch(SETTINGS).launchOptions('http://127.0.0.1:4000');
    expect(options.chromiumSandbox).toBe(true);
    expect(options.args).not.toContain('--no-sandbox');
    expect(options.args).toEqual(expect.arrayContaining(['--force-webrtc-ip-handling-policy=disable_non_proxied_udp', '--disable-quic']));
    expect(options.proxy).toEqual({ server: 'http://127.0.0.1:4000', bypass: '<-loopback>' });
    expect(chromiumLaunch(SETTINGS).launchOptions(undefined).proxy).toBeUndefined();
    expect(chromiumLaunch({ ...SETTINGS, sandbox: false }).launchOptions(undefined).chromiumSandbox).toBe(false);
  });

  it('gives Chromium only the environment it is configured with', () => {
    const { env } = chromiumLaunch(SETTINGS).launchOptions(undefined);
    if (runsAsRoot()) {
      // Its own home, and nothing of root's.
      expect(Object.keys(env!).sort()).toEqual(['HOME', 'LANG', 'PATH']);
      expect(env!.HOME).not.toBe('/root');
    } else {
      expect(env).toEqual(SETTINGS.environment);
    }
  });

  it('starts Chromium as CHROMIUM_USER through a wrapper when the worker is root, directly otherwise', () => {
    const launch = chromiumLaunch(SETTINGS);
    const { executablePath, env } = launch.launchOptions(undefined);
    if (!runsAsRoot()) {
      expect(launch.user).toBeUndefined();
      expect(executablePath).toBe(SETTINGS.path);
      return;
    }
    expect(launch.user).toEqual({ uid: 65534, gid: 65534 });
    const wrapper = readFileSync(executablePath!, 'utf8');
    expect(wrapper).toMatch(/setpriv --reuid=65534 --regid=65534 --clear-groups --pdeathsig KILL -- '\/usr\/lib\/chromium\/chromium-headless-shell' "\$@"/);
    expect(wrapper).toContain('--user-data-dir=*)');
    expect(statSync(env!.HOME as string).uid).toBe(65534);
    expect(chromiumLaunch({ ...SETTINGS, user: '1234:5678' }).user).toEqual({ uid: 1234, gid: 5678 });
    expect(() => chromiumLaunch({ ...SETTINGS, user: 'no-such-user-4711' })).toThrow('CHROMIUM_USER=no-such-user-4711 is not a user on this machine');
    expect(() => chromiumLaunch({ ...SETTINGS, user: '0' })).toThrow('CHROMIUM_USER=0 is root');
  });
});

describe('checkChromiumStarts', () => {
  it('names the sandbox and CHROMIUM_SANDBOX when Chromium cannot sandbox itself', async () => {
    const path = fakeChromium(
      'no-sandbox-chromium',
      '[1123/195025.728798:ERROR:content/browser/zygote_host/zygote_host_impl_linux.cc:130] No usable sandbox! If you want to live dangerously, you can try using --no-sandbox.',
    );
    const err = await checkChromiumStarts({ ...SETTINGS, path }).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(/^Chromium's sandbox cannot start on this machine \(.*no-sandbox-chromium/);
    expect((err as Error).message).toContain('Set CHROMIUM_SANDBOX=false');
    expect((err as Error).message).not.toContain('\n');
  });

  it('says which binary failed otherwise', async () => {
    const path = fakeChromium('broken-chromium', 'error while loading shared libraries: libnss3.so');
    const err = await checkChromiumStarts({ ...SETTINGS, path }).catch((e: Error) => e);
    expect((err as Error).message).toMatch(/^Chromium does not start \(.*broken-chromium.*\): .*libnss3\.so/);
    expect((err as Error).message).not.toContain('\n');
  });
});
