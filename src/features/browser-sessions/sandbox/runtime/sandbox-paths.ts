// Where things are inside a sandbox. Shared by the host, which mounts them, and
// by the runners, which run inside; nothing else of the host is visible there.
export const SANDBOX_ROOT = '/sandbox';
export const RUNTIME_DIR = `${SANDBOX_ROOT}/runtime`;
export const BIN_DIR = `${SANDBOX_ROOT}/bin`;
export const NODE_BINARY = `${BIN_DIR}/node`;
export const AGENT_BROWSER_BINARY = `${BIN_DIR}/agent-browser`;
export const NODE_MODULES_DIR = `${SANDBOX_ROOT}/node_modules`;
export const PYTHON_PACKAGES_DIR = `${SANDBOX_ROOT}/python`;
/** The session's CDP bridge: a unix socket whose other end reaches that session's Chromium only. */
export const BRIDGE_SOCKET = `${SANDBOX_ROOT}/bridge/cdp.sock`;
/** The agent-browser daemon's socket directory, shared by the daemon's sandbox and each bash run. */
export const AGENT_BROWSER_DIR = `${SANDBOX_ROOT}/agent-browser`;
/** A bash run's script. */
export const CODE_FILE = `${SANDBOX_ROOT}/code.sh`;
/** The descriptor on which a runner reports its result as one JSON object. */
export const REPORT_FD = 3;
