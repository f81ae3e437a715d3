// The execute sandbox's section of the settings (src/config.ts composes them all).
import { bool, boundedInt, MB, positiveInt, str } from '../../../platform/config/env.ts';

export function sandboxConfig() {
  return {
    /** bubblewrap, which walls every execute in (namespaces, a read-only filesystem of the runtimes only, no network). */
    bwrapPath: str('SANDBOX_BWRAP_PATH') ?? '/usr/bin/bwrap',
    /**
     * When the host is root, each session's executes run as a uid of its own from this range (no passwd
     * entry needed): its processes are counted apart from the service's, Chromium's and other sessions'.
     * Pick a range no one else uses.
     */
    uidBase: boundedInt('SANDBOX_UID_BASE', 2_000_000_000, 1000, 4_000_000_000, 'a uid range below 2^32 that no account uses'),
    /** Sessions one browser host can run executes for at once (the size of the uid range). */
    maxSessions: positiveInt('SANDBOX_MAX_SESSIONS', 10_000),
    /** Address space of each sandboxed process (RLIMIT_AS); Node needs about 1.5 GB of it to start. */
    memoryBytes: positiveInt('SANDBOX_MEMORY_BYTES', 2048 * MB),
    /** Processes and threads of one session's sandboxes together (RLIMIT_NPROC, counted per uid). */
    maxProcesses: positiveInt('SANDBOX_MAX_PROCESSES', 256),
    /** Largest file a sandboxed process may write (RLIMIT_FSIZE). */
    maxFileBytes: positiveInt('SANDBOX_MAX_FILE_BYTES', 64 * MB),
    /** Size of each run's private /tmp (a tmpfs, counted in the host's memory). */
    tmpBytes: positiveInt('SANDBOX_TMP_BYTES', 128 * MB),
    /** Open files per sandboxed process (RLIMIT_NOFILE). */
    maxOpenFiles: positiveInt('SANDBOX_MAX_OPEN_FILES', 1024),
    /** stdout, stderr and result of one execute are each cut at this many bytes. */
    maxOutputBytes: positiveInt('SANDBOX_MAX_OUTPUT_BYTES', MB),
    /** Keep a node and a python runner started and attached per session, so an execute starts at once. */
    warmRunners: bool('SANDBOX_WARM_RUNNERS', true),
    /** How long a session's agent-browser daemon may take to start and attach. */
    daemonStartTimeoutMs: positiveInt('SANDBOX_DAEMON_START_TIMEOUT_MS', 20_000),
    /** The Python that runs python executes (its prefix is mounted read-only into the sandbox). */
    python: str('SANDBOX_PYTHON') ?? 'python3',
    /** Where the Python Playwright package lives (bootstrap installs it into .tools/python). */
    pythonPackagesPath: str('PYTHON_PACKAGES_PATH'),
  };
}

export type SandboxSettings = ReturnType<typeof sandboxConfig>;
