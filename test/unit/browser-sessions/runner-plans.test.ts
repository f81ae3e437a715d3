import { describe, expect, it } from 'vitest';
import { executeOutcome } from '../../../src/features/browser-sessions/sandbox/execute-answer.ts';
import { agentBrowserDaemon, bashRunner, cpuSecondsFor, nodeRunner, pythonRunner } from '../../../src/features/browser-sessions/sandbox/runner-plans.ts';
import type { Runtimes } from '../../../src/features/browser-sessions/sandbox/sandbox-runtimes.ts';
import { loadConfig } from '../../../src/config.ts';

const settings = { ...loadConfig().sandbox, maxOutputBytes: 1000 };
const runtimes: Runtimes = {
  runtimeDir: '/srv/runtime',
  nodeBinary: '/usr/bin/node',
  nodePackages: { 'playwright-core': '/srv/node_modules/playwright-core' },
  agentBrowserBinary: '/srv/agent-browser',
  privateDir: '/tmp/private',
};
const session = { browserPath: '/devtools/browser/abc', bridgeSocket: '/tmp/private/1.sock', agentBrowserDir: '/sessions/s1/agent-browser' };
const sources = (mounts: { source: string }[]) => mounts.map((m) => m.source);

describe('runner plans', () => {
  it('gives a runner the timeout and five seconds of CPU, and the daemon no limit', () => {
    expect(cpuSecondsFor(30_000)).toBe(35);
    expect(cpuSecondsFor(1_500)).toBe(7);
    expect(nodeRunner(runtimes, settings, session, 35).plan.cpuSeconds).toBe(35);
    expect(agentBrowserDaemon(runtimes, session).plan.cpuSeconds).toBeUndefined();
  });

  it('mounts the bridge only for runners that drive the browser, and agent-browser’s directory writable for the daemon alone', () => {
    const bash = bashRunner(runtimes, session, 10).plan;
    expect(sources(bash.mounts)).toEqual(['/srv/agent-browser', session.agentBrowserDir]);
    expect(bash.mounts.some((m) => m.writable)).toBe(false);
    expect(bash.fdLink).toEqual({ fd: 5, target: '/sandbox/code.sh' });
    const node = nodeRunner(runtimes, settings, session, 10);
    expect(sources(node.plan.mounts)).toEqual(['/srv/runtime', '/usr/bin/node', '/srv/node_modules/playwright-core', session.bridgeSocket]);
    expect(node.env).toEqual({ EXECUTE_CDP_PATH: session.browserPath, EXECUTE_CDP_SOCKET: '/sandbox/bridge/cdp.sock', EXECUTE_MAX_RESULT_CHARS: '1000' });
    const daemon = agentBrowserDaemon(runtimes, session).plan;
    expect(daemon.mounts.filter((m) => m.writable)).toEqual([{ source: session.agentBrowserDir, target: '/sandbox/agent-browser', writable: true }]);
  });

  it('mounts a Python outside /usr at its own prefix, and one under /usr/ not again', () => {
    const inUsr = pythonRunner(runtimes, settings, '/srv/python', { executable: '/usr/local/bin/python3', prefix: '/usr/local' }, session, 10);
    expect(sources(inUsr.plan.mounts)).toEqual(['/srv/runtime', session.bridgeSocket, '/srv/python']);
    expect(inUsr.plan.command).toEqual(['/usr/local/bin/python3', '-s', '-B', '/sandbox/runtime/python-runner.py']);
    expect(inUsr.env).toMatchObject({ PYTHONPATH: '/sandbox/python', PYTHONDONTWRITEBYTECODE: '1', EXECUTE_CDP_PATH: session.browserPath });
    const venv = pythonRunner(runtimes, settings, '/srv/python', { executable: '/opt/py/bin/python3', prefix: '/opt/py' }, session, 10);
    expect(venv.plan.mounts.at(-1)).toEqual({ source: '/opt/py', target: '/opt/py' });
  });
});

describe('executeOutcome', () => {
  const ran = { stdout: '', stderr: '', report: {}, exitCode: 0, killed: false };

  it('answers the last value, else stdout, else null', () => {
    expect(executeOutcome('s1', { ...ran, stdout: 'hi\n', report: { result: '2' } }).result).toBe('2');
    expect(executeOutcome('s1', { ...ran, stdout: 'hi\n' }).result).toBe('hi\n');
    expect(executeOutcome('s1', ran)).toEqual({ stdout: '', stderr: '', result: null, error: null, exitCode: 0, killed: false });
  });

  it('fails for a runner that failed itself, unless the timeout killed it', () => {
    expect(() => executeOutcome('s1', { ...ran, report: { fatal: 'no browser' } })).toThrow('execute in session s1 failed: no browser');
    expect(executeOutcome('s1', { ...ran, report: { fatal: 'no browser' }, killed: true, exitCode: 137 }).killed).toBe(true);
  });
});
