// The container tools of the compose test (docs/operations.md#npm-run-testcompose),
// the ones that work on machines with no container registry: rootful podman with runc,
// docker-compose 1.29 against podman's Docker-compatible API socket, and a base
// image made from Debian packages with mmdebstrap.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { run } from './run-command.ts';

/** The base image the test keeps between runs (docs/operations.md names it): remove it with `podman rmi`. */
export const BASE_IMAGE = 'localhost/debian-base:bookworm';

function onPath(cmd: string): boolean {
  return (process.env.PATH ?? '').split(':').some((dir) => dir && existsSync(join(dir, cmd)));
}

/** apt-get installs what is missing, as `npm test` installs Chromium: as root. */
export async function ensureContainerTools(say: (line: string) => void): Promise<void> {
  const missing = ['podman', 'runc', 'mmdebstrap'].filter((tool) => !onPath(tool));
  const compose = onPath('docker-compose');
  if (missing.length === 0 && compose) return;
  if (process.getuid?.() !== 0 || !onPath('apt-get'))
    throw new Error(`missing ${[...missing, ...(compose ? [] : ['docker-compose'])].join(', ')}: run as root on Debian, or install them`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  say(`apt-get install ${[...missing, ...(compose ? [] : ['docker-compose'])].join(' ')}`);
  await run('apt-get', ['update', '-qq'], { env });
  if (missing.length > 0) await run('apt-get', ['install', '-y', '-qq', ...missing], { env });
  // Without recommends: docker-compose would otherwise bring docker.io.
  if (!compose) await run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'docker-compose'], { env });
}

/**
 * A containers.conf for podman (pointed at by CONTAINERS_CONF): crun fails on
 * these machines' hybrid cgroups, runc works; containers get the open-file and
 * process limits Chromium needs.
 */
export function writeContainersConf(dir: string): string {
  const file = join(dir, 'containers.conf');
  writeFileSync(file, ['[containers]', 'default_ulimits = ["nofile=20000:20000", "nproc=32768:32768"]', '', '[engine]', 'runtime = "runc"', ''].join('\n'));
  return file;
}

/** The apt sources the host uses, passed to mmdebstrap at run time (the repository names no mirror). */
function aptSources(): string[] {
  const dir = '/etc/apt/sources.list.d';
  const files = existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => /\.(list|sources)$/.test(f))
        .map((f) => join(dir, f))
    : [];
  return ['/etc/apt/sources.list', ...files].filter((f) => existsSync(f));
}

/**
 * Debian bookworm minbase, made once and kept. It carries the CA certificates
 * the host added (/usr/local/share/ca-certificates) and tells Node to trust the
 * system's store, so that npm and pip inside builds reach the registries the host
 * reaches, through whatever TLS proxy the host trusts.
 */
export async function ensureBaseImage(env: NodeJS.ProcessEnv, workDir: string, say: (line: string) => void): Promise<void> {
  if (await imageExists(env)) return;
  const sources = aptSources();
  if (sources.length === 0) throw new Error('no apt sources in /etc/apt to make the base image from');
  say(`making ${BASE_IMAGE} with mmdebstrap (once; kept as a cache)`);
  const tar = join(workDir, 'base.tar');
  const localCas = '/usr/local/share/ca-certificates';
  const hooks = existsSync(localCas)
    ? [`--customize-hook=mkdir -p "$1${localCas}"`, `--customize-hook=sync-in ${localCas} ${localCas}`, '--customize-hook=chroot "$1" update-ca-certificates']
    : [];
  await run('mmdebstrap', ['--variant=minbase', '--mode=root', '--include=ca-certificates', ...hooks, 'bookworm', tar, ...sources], { env });
  await run('podman', ['import', '--change', 'CMD ["/bin/bash"]', '--change', 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt', tar, BASE_IMAGE], {
    env,
  });
}

async function imageExists(env: NodeJS.ProcessEnv): Promise<boolean> {
  return (await run('podman', ['images', '-q', BASE_IMAGE], { env })).trim() !== '';
}

export async function imageIds(env: NodeJS.ProcessEnv): Promise<Set<string>> {
  return new Set((await run('podman', ['images', '-a', '-q', '--no-trunc'], { env })).split('\n').filter(Boolean));
}

/** podman's Docker-compatible API on a socket of the test's own, for docker-compose. */
export async function startApiService(env: NodeJS.ProcessEnv, workDir: string): Promise<{ socket: string; process: ChildProcess }> {
  const socket = join(workDir, 'podman.sock');
  const child = spawn('podman', ['system', 'service', '--time=0', `unix://${socket}`], { env, stdio: 'ignore' });
  for (let i = 0; i < 100 && !existsSync(socket); i++) await new Promise((r) => setTimeout(r, 100));
  if (!existsSync(socket)) {
    child.kill();
    throw new Error('podman system service did not create its socket within 10 s');
  }
  return { socket, process: child };
}
