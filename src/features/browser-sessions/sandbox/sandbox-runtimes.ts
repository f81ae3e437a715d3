// What a sandbox mounts to run node, python and agent-browser: the host's own
// binaries and packages, read-only, each at a fixed path under /sandbox
// (runtime/sandbox-paths.ts). Nothing else of the service's tree goes in.
import { execFile } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const require = createRequire(import.meta.url);

export interface Runtimes {
  /** The runners (runtime/), mounted at RUNTIME_DIR. */
  runtimeDir: string;
  nodeBinary: string;
  /** Packages the node runner imports, each mounted under NODE_MODULES_DIR. */
  nodePackages: Record<string, string>;
  /** An executable copy of agent-browser's native CLI (the package ships it without the x bit). */
  agentBrowserBinary: string;
  /** Where the host keeps its bridge sockets: a directory of this process, removed when it exits. */
  privateDir: string;
}

function packageDir(name: string): string {
  return dirname(require.resolve(`${name}/package.json`));
}

function agentBrowserNative(): string {
  const arch = { x64: 'x64', arm64: 'arm64' }[process.arch as string];
  const file = join(packageDir('agent-browser'), 'bin', `agent-browser-${process.platform}-${arch}`);
  if (!arch || !existsSync(file)) throw new Error(`agent-browser has no native binary for ${process.platform}-${process.arch} (looked for ${file})`);
  return file;
}

export function prepareRuntimes(): Runtimes {
  const privateDir = mkdtempSync(join(tmpdir(), 'execute-sandbox-'));
  process.once('exit', () => rmSync(privateDir, { recursive: true, force: true }));
  // Sandboxed uids pass through to the agent-browser copy; they may not list the directory.
  chmodSync(privateDir, 0o711);
  const agentBrowserBinary = join(privateDir, 'agent-browser');
  copyFileSync(agentBrowserNative(), agentBrowserBinary);
  chmodSync(agentBrowserBinary, 0o755);
  return {
    runtimeDir: join(dirname(fileURLToPath(import.meta.url)), 'runtime'),
    nodeBinary: process.execPath,
    nodePackages: { 'playwright-core': packageDir('playwright-core'), acorn: packageDir('acorn') },
    agentBrowserBinary,
    privateDir,
  };
}

export interface PythonRuntime {
  /** The interpreter, symlinks resolved. */
  executable: string;
  /** Its installation (sys.base_prefix), mounted at the same path so that it finds its standard library. */
  prefix: string;
}

export async function resolvePython(command: string): Promise<PythonRuntime> {
  const script = 'import os, sys; print(os.path.realpath(sys.executable)); print(sys.base_prefix)';
  try {
    const { stdout } = await promisify(execFile)(command, ['-c', script], { timeout: 30_000 });
    const [executable, prefix] = stdout.trim().split('\n');
    if (!executable || !prefix) throw new Error(`unexpected answer: ${stdout.slice(0, 200)}`);
    return { executable, prefix };
  } catch (err) {
    throw new Error(`SANDBOX_PYTHON=${command} does not run: ${(err as Error).message}`, { cause: err });
  }
}
