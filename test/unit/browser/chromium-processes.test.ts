// Which processes are Chromium's and in what role, from the command lines Linux
// shows for them (test/fixtures/proc), and the gauges over a real Chromium this
// test starts: counted with its children while it runs, gone when it ends.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chromiumProcesses, chromiumRole, isChromium } from '../../../src/platform/browser/chromium-processes.ts';
import { parseCommandLine } from '../../../src/platform/process/process-table.ts';
import { registry } from '../../../src/platform/metrics/registry.ts';
import '../../../src/platform/browser/chromium-metrics.ts';
import { waitFor } from '../../support/wait-for.ts';

const commandLine = (name: string) => parseCommandLine(readFileSync(join(import.meta.dirname, '../../fixtures/proc', `${name}.cmdline`), 'utf8'));

describe('chromiumRole', () => {
  it('reads the role from --type=, and a process without one is the browser', () => {
    expect(['browser', 'zygote', 'renderer', 'gpu', 'utility'].map((name) => chromiumRole(commandLine(name)))).toEqual([
      'browser',
      'zygote',
      'renderer',
      'gpu',
      'utility',
    ]);
  });

  it('calls any other type other, and does not take a --type= inside another argument', () => {
    expect(chromiumRole('/usr/lib/chromium/chromium --type=crashpad-handler --monitor-self')).toBe('other');
    expect(chromiumRole('/usr/lib/chromium/chromium --flag=x--type=renderer')).toBe('browser');
  });
});

describe('isChromium', () => {
  it('knows Chromium, Chrome and the headless shell by their kernel names, not the crash handler', () => {
    expect(['chromium', 'chromium-headle', 'chrome', 'headless_shell'].map(isChromium)).toEqual([true, true, true, true]);
    expect(['chrome_crashpad', 'node', 'bash', 'setpriv'].map(isChromium)).toEqual([false, false, false, false]);
  });
});

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/lib/chromium/chromium-headless-shell';

async function gaugeByRole(name: string): Promise<Record<string, number>> {
  const metric = await registry.getSingleMetric(name)!.get();
  return Object.fromEntries(metric.values.map((v) => [String(v.labels.role), v.value]));
}

describe('a Chromium this process starts', () => {
  // Root cannot start Chromium sandboxed; the sandbox is beside the point here.
  const child = spawn(CHROMIUM, ['--headless', '--no-sandbox', '--disable-gpu', '--remote-debugging-port=0', 'about:blank'], {
    stdio: 'ignore',
    detached: true,
  });
  afterAll(() => {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
  });

  it('is found with its children by role and memory, and counted by the gauges', async () => {
    // While Chromium starts, a process it has just forked shows the browser's command line for a moment.
    const found = await waitFor('Chromium and its zygote, one browser process', async () => {
      const processes = await chromiumProcesses();
      return processes.some((p) => p.role === 'zygote') && processes.filter((p) => p.role === 'browser').length === 1 && processes;
    });
    expect(found.filter((p) => p.role === 'browser').map((p) => p.pid)).toEqual([child.pid]);
    for (const p of found) expect(p.residentBytes).toBeGreaterThan(0);

    const counts = await waitFor('the gauge to count the browser', async () => {
      const byRole = await gaugeByRole('crawl_service_chromium_processes');
      return byRole.browser === 1 && byRole;
    });
    expect(Object.keys(counts).sort()).toEqual(['browser', 'gpu', 'other', 'renderer', 'utility', 'zygote']);
    expect(counts.zygote).toBeGreaterThan(0);
    await waitFor('the memory gauge to count the browser', async () => (await gaugeByRole('crawl_service_chromium_resident_memory_bytes')).browser > 0);
  }, 30_000);

  it('is no longer counted once it has exited', async () => {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-child.pid!, 'SIGKILL');
    await exited;
    await waitFor('no Chromium left', async () => (await chromiumProcesses()).length === 0);
    // Each gauge keeps its last reading for a few seconds: both come to 0, every role still present.
    for (const name of ['crawl_service_chromium_processes', 'crawl_service_chromium_resident_memory_bytes']) {
      const byRole = await waitFor(`${name} to drop to 0`, async () => {
        const values = await gaugeByRole(name);
        return Object.values(values).every((v) => v === 0) && values;
      });
      expect(Object.keys(byRole)).toHaveLength(6);
    }
  }, 30_000);
});
