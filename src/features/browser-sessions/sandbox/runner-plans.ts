// What each sandbox of a session is made of: the mounts, CPU limit, command and
// environment of a bash, node or python runner, and of the session's agent-browser
// daemon. Only what a runner needs goes in: the runtimes read-only, the session's
// bridge socket for those that drive the browser, and the agent-browser directory,
// writable for the daemon alone.
import type { Mount, SandboxPlan } from './bwrap-command.ts';
import type { SandboxSettings } from './sandbox-limits.ts';
import type { PythonRuntime, Runtimes } from './sandbox-runtimes.ts';
import * as paths from './runtime/sandbox-paths.ts';

/** A sandbox to start, but for the uid it runs as (the session's). */
export interface RunnerLaunch {
  plan: Omit<SandboxPlan, 'user'>;
  env: Record<string, string>;
}

/** Where a session's runners find its browser. */
export interface SessionPlaces {
  /** The browser's DevTools path (/devtools/browser/ID). */
  browserPath: string;
  /** The host end of the session's CDP bridge. */
  bridgeSocket: string;
  /** The host directory of the session's agent-browser daemon. */
  agentBrowserDir: string;
}

/**
 * The bash runner: waits for the script on stdin, runs it as a child and reports how it exited.
 * The child reads the script through paths.CODE_FILE, a link to its descriptor 5, so that the
 * script is named as a file; that has to be a pipe (the host's stdin is a socket, which cannot be
 * opened by path), hence cat. The script's own stdin is empty, as a file's run was.
 */
export const BASH_RUNNER = `cat ${paths.REPORT_FD}>&- | /bin/bash ${paths.CODE_FILE} 5<&0 </dev/null ${paths.REPORT_FD}>&-
printf '{"exitCode":%d}\\n' "$?" >&${paths.REPORT_FD}`;

/** A runner's CPU seconds: the execute's timeout and a margin for the runtime's start. */
export const cpuSecondsFor = (timeoutMs: number) => Math.ceil(timeoutMs / 1000) + 5;

const runtimeMount = (runtimes: Runtimes): Mount => ({ source: runtimes.runtimeDir, target: paths.RUNTIME_DIR });
const bridgeMount = (session: SessionPlaces): Mount => ({ source: session.bridgeSocket, target: paths.BRIDGE_SOCKET });
const nodeMounts = (runtimes: Runtimes): Mount[] => [
  runtimeMount(runtimes),
  { source: runtimes.nodeBinary, target: paths.NODE_BINARY },
  ...Object.entries(runtimes.nodePackages).map(([name, dir]) => ({ source: dir, target: `${paths.NODE_MODULES_DIR}/${name}` })),
];

/** What node and python runners are told about the browser they attach to. */
const cdpEnv = (settings: SandboxSettings, session: SessionPlaces) => ({
  EXECUTE_CDP_PATH: session.browserPath,
  EXECUTE_CDP_SOCKET: paths.BRIDGE_SOCKET,
  EXECUTE_MAX_RESULT_CHARS: String(settings.maxOutputBytes),
});

export function bashRunner(runtimes: Runtimes, session: SessionPlaces, cpuSeconds: number): RunnerLaunch {
  return {
    plan: {
      mounts: [
        { source: runtimes.agentBrowserBinary, target: paths.AGENT_BROWSER_BINARY },
        { source: session.agentBrowserDir, target: paths.AGENT_BROWSER_DIR },
      ],
      cpuSeconds,
      fdLink: { fd: 5, target: paths.CODE_FILE },
      command: ['/bin/bash', '-c', BASH_RUNNER],
    },
    env: { AGENT_BROWSER_SOCKET_DIR: paths.AGENT_BROWSER_DIR, AGENT_BROWSER_NO_VERSION_CHECK: '1' },
  };
}

export function nodeRunner(runtimes: Runtimes, settings: SandboxSettings, session: SessionPlaces, cpuSeconds: number): RunnerLaunch {
  return {
    plan: { mounts: [...nodeMounts(runtimes), bridgeMount(session)], cpuSeconds, command: [paths.NODE_BINARY, `${paths.RUNTIME_DIR}/node-runner.ts`] },
    env: cdpEnv(settings, session),
  };
}

/** `pythonPackagesPath`: the host's Python Playwright package directory. */
export function pythonRunner(
  runtimes: Runtimes,
  settings: SandboxSettings,
  pythonPackagesPath: string,
  py: PythonRuntime,
  session: SessionPlaces,
  cpuSeconds: number,
): RunnerLaunch {
  const mounts: Mount[] = [runtimeMount(runtimes), bridgeMount(session), { source: pythonPackagesPath, target: paths.PYTHON_PACKAGES_DIR }];
  if (!py.prefix.startsWith('/usr/')) mounts.push({ source: py.prefix, target: py.prefix });
  return {
    plan: { mounts, cpuSeconds, command: [py.executable, '-s', '-B', `${paths.RUNTIME_DIR}/python-runner.py`] },
    env: { ...cdpEnv(settings, session), PYTHONPATH: paths.PYTHON_PACKAGES_DIR, PYTHONDONTWRITEBYTECODE: '1' },
  };
}

/** The session's agent-browser daemon: lives until the session ends, so it has no CPU limit. */
export function agentBrowserDaemon(runtimes: Runtimes, session: SessionPlaces): RunnerLaunch {
  return {
    plan: {
      mounts: [
        ...nodeMounts(runtimes),
        bridgeMount(session),
        { source: runtimes.agentBrowserBinary, target: paths.AGENT_BROWSER_BINARY },
        { source: session.agentBrowserDir, target: paths.AGENT_BROWSER_DIR, writable: true },
      ],
      cpuSeconds: undefined,
      command: [paths.NODE_BINARY, `${paths.RUNTIME_DIR}/agent-browser-host.ts`],
    },
    env: {
      EXECUTE_CDP_PATH: session.browserPath,
      AGENT_BROWSER_SOCKET_DIR: paths.AGENT_BROWSER_DIR,
      AGENT_BROWSER_IDLE_TIMEOUT_MS: '0',
      AGENT_BROWSER_NO_VERSION_CHECK: '1',
    },
  };
}
