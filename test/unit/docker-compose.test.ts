// Static checks of the container setup (there is no Docker engine on our
// machines, so docker-compose.yml and the Dockerfile are checked by reading
// them): every file they point at exists in the repo, services reference each
// other consistently, and the app containers are wired to the compose Postgres
// and Temporal.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, normalize, posix, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { TYPESCRIPT_NODE_ARGS } from '../../src/platform/process/typescript-runtime.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const COMPOSE_FILE = join(ROOT, 'docker-compose.yml');

type Dict = Record<string, unknown>;

interface Service {
  image?: string;
  build?: string | { context?: string; dockerfile?: string };
  command?: string | string[];
  entrypoint?: string | string[];
  environment?: Record<string, string | number | boolean | null> | string[];
  volumes?: (string | { type?: string; source?: string; target?: string })[];
  depends_on?: string[] | Record<string, { condition?: string }>;
  stop_grace_period?: string;
  shm_size?: string;
  init?: boolean;
  security_opt?: string[];
  profiles?: string[];
  healthcheck?: { test: string[] };
  ports?: (string | number | { target?: number; published?: string | number; host_ip?: string })[];
}

const compose = parse(readFileSync(COMPOSE_FILE, 'utf8')) as { services: Record<string, Service>; volumes?: Dict };
const services = compose.services;

const EXPECTED_SERVICES = ['postgres', 'temporal-admin-tools', 'temporal', 'temporal-create-namespace', 'temporal-ui', 'gateway', 'worker', 'browser-host'];

/** Compose variable interpolation with the defaults written in the file: ${VAR:-default}, ${VAR-default}, ${VAR}. */
function interpolate(value: string): string {
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::?-([^}]*))?\}/g, (_m, _name, fallback) => fallback ?? '');
}

/** Shell-ish split of a string command (compose splits string commands the same way, honouring quotes). */
function splitCommand(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  if (Array.isArray(value)) return value.map(String);
  const out: string[] = [];
  const re = /"([^"]*)"|'([^']*)'|(\S+)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(value))) out.push(m[1] ?? m[2] ?? m[3]);
  return out;
}

/** The program's arguments; a `sh -c "VAR=... exec program args"` wrapper is seen through. */
function argsOf(service: Service): string[] {
  const args = [...splitCommand(service.entrypoint), ...splitCommand(service.command)];
  if (args[0] !== 'sh' || args[1] !== '-c') return args;
  return splitCommand(args[2]).filter((word) => word !== 'exec' && !/^[A-Z_][A-Z0-9_]*=/.test(word));
}

function environmentOf(service: Service): Record<string, string> {
  const env: Record<string, string> = {};
  if (Array.isArray(service.environment)) {
    for (const entry of service.environment) {
      const i = entry.indexOf('=');
      if (i > 0) env[entry.slice(0, i)] = interpolate(entry.slice(i + 1));
    }
  } else if (service.environment) {
    for (const [k, v] of Object.entries(service.environment)) env[k] = v === null ? '' : interpolate(String(v));
  }
  return env;
}

function dependsOn(service: Service): string[] {
  if (!service.depends_on) return [];
  return Array.isArray(service.depends_on) ? service.depends_on : Object.keys(service.depends_on);
}

interface Mount {
  source: string;
  target: string;
  bind: boolean;
}

function mountsOf(service: Service): Mount[] {
  return (service.volumes ?? []).map((v) => {
    if (typeof v === 'string') {
      const [source, target] = interpolate(v).split(':');
      const bind = source.startsWith('.') || source.startsWith('/') || source.startsWith('~');
      return { source, target: target ?? source, bind };
    }
    return { source: interpolate(v.source ?? ''), target: v.target ?? '', bind: v.type === 'bind' };
  });
}

/** Repo-relative bind mounts: ./x or ../x resolved against the compose file's folder. */
function repoMounts(service: Service): (Mount & { hostPath: string })[] {
  return mountsOf(service)
    .filter((m) => m.bind && m.source.startsWith('.'))
    .map((m) => ({ ...m, hostPath: resolve(ROOT, m.source) }));
}

function buildOf(service: Service): { context: string; dockerfile: string } | undefined {
  if (!service.build) return undefined;
  if (typeof service.build === 'string') return { context: resolve(ROOT, service.build), dockerfile: 'Dockerfile' };
  return { context: resolve(ROOT, service.build.context ?? '.'), dockerfile: service.build.dockerfile ?? 'Dockerfile' };
}

const SCRIPT_RE = /\.(ts|mts|js|mjs|cjs|sh)$/;

/** Container path -> repo file through the service's bind mounts (file or folder mounts). */
function mapThroughMounts(service: Service, containerPath: string): string | undefined {
  for (const m of repoMounts(service)) {
    const target = posix.normalize(m.target);
    if (containerPath === target) return m.hostPath;
    if (containerPath.startsWith(`${target}/`)) return join(m.hostPath, containerPath.slice(target.length + 1));
  }
  return undefined;
}

/** Milliseconds of a compose duration such as 45s, 1m30s, 1500ms. */
function durationMs(value: string): number {
  let total = 0;
  const re = /(\d+(?:\.\d+)?)(ms|us|h|m|s)/g;
  let m: RegExpExecArray | null;
  let matched = '';
  while ((m = re.exec(value))) {
    matched += m[0];
    const n = Number(m[1]);
    total += m[2] === 'h' ? n * 3_600_000 : m[2] === 'm' ? n * 60_000 : m[2] === 's' ? n * 1000 : m[2] === 'ms' ? n : n / 1000;
  }
  if (matched !== value) throw new Error(`cannot parse duration ${value}`);
  return total;
}

interface Published {
  hostIp: string;
  hostPort: string;
  target: string;
}

/** Published ports with the file's defaults: "[ip:]host:container[/proto]" (IPv6 in brackets) or the long syntax. */
function publishedPorts(service: Service): Published[] {
  return (service.ports ?? []).map((p) => {
    if (typeof p === 'object') return { hostIp: p.host_ip ?? '', hostPort: String(p.published ?? ''), target: String(p.target ?? '') };
    const spec = interpolate(String(p)).replace(/\/(tcp|udp)$/, '');
    const m = /^(?:(\[[^\]]+\]|[^:]*):)??(?:([^:]*):)?([^:]+)$/.exec(spec);
    if (!m) throw new Error(`cannot parse port ${spec}`);
    return { hostIp: (m[1] ?? '').replace(/^\[|\]$/g, ''), hostPort: m[2] ?? '', target: m[3] };
  });
}

describe('docker-compose.yml', () => {
  it('defines the expected services', () => {
    for (const name of EXPECTED_SERVICES) expect(services, `service ${name}`).toHaveProperty(name);
  });

  it('builds app services from an existing Dockerfile and runs repo entry files', () => {
    const built = Object.entries(services).filter(([, s]) => s.build);
    expect(built.map(([n]) => n)).toEqual(expect.arrayContaining(['gateway', 'worker', 'browser-host']));
    for (const [name, service] of built) {
      const build = buildOf(service)!;
      expect(existsSync(build.context), `${name}: build context ${build.context}`).toBe(true);
      expect(existsSync(join(build.context, build.dockerfile)), `${name}: Dockerfile ${build.dockerfile}`).toBe(true);

      const args = argsOf(service);
      const files = args.filter((a) => SCRIPT_RE.test(a) && !isAbsolute(a));
      expect(files.length, `${name}: command/entrypoint names no repo file: ${args.join(' ')}`).toBeGreaterThan(0);
      // The image's WORKDIR holds a copy of the build context, so relative paths
      // are relative to the context.
      for (const file of files) {
        const path = join(build.context, file);
        expect(existsSync(path) && statSync(path).isFile(), `${name}: ${file} must exist in the repo (${relative(ROOT, path)})`).toBe(true);
      }
    }
  });

  it('runs the gateway, the worker and the browser host through their entry points', () => {
    expect(argsOf(services.gateway)).toEqual(expect.arrayContaining(['src/entry/gateway.ts']));
    expect(argsOf(services.worker)).toEqual(expect.arrayContaining(['src/entry/worker.ts']));
    expect(argsOf(services['browser-host'])).toEqual(expect.arrayContaining(['src/entry/browser-host.ts']));
    for (const name of ['gateway', 'worker', 'browser-host'])
      expect(argsOf(services[name]).join(' ')).toContain(`node ${TYPESCRIPT_NODE_ARGS.join(' ')} src/entry/`);
  });

  it('mounts only repo files that exist', () => {
    for (const [name, service] of Object.entries(services)) {
      for (const m of repoMounts(service)) {
        expect(existsSync(m.hostPath), `${name}: mount source ${m.source}`).toBe(true);
      }
    }
  });

  it('image-based services run mounted scripts that exist in the repo', () => {
    for (const [name, service] of Object.entries(services)) {
      if (service.build) continue;
      for (const arg of argsOf(service)) {
        if (!isAbsolute(arg) || !SCRIPT_RE.test(arg)) continue;
        const hostPath = mapThroughMounts(service, arg);
        expect(hostPath, `${name}: ${arg} is not provided by a repo mount`).toBeDefined();
        expect(existsSync(hostPath!) && statSync(hostPath!).isFile(), `${name}: ${arg} -> ${hostPath}`).toBe(true);
      }
    }
    // The one-shot jobs really run their scripts.
    expect(mapThroughMounts(services['temporal-admin-tools'], argsOf(services['temporal-admin-tools']).at(-1)!)).toBe(
      join(ROOT, 'docker', 'temporal-schema.sh'),
    );
    expect(mapThroughMounts(services['temporal-create-namespace'], argsOf(services['temporal-create-namespace']).at(-1)!)).toBe(
      join(ROOT, 'docker', 'temporal-namespace.sh'),
    );
  });

  it('depends_on names existing services, and named volumes are declared', () => {
    for (const [name, service] of Object.entries(services)) {
      for (const dep of dependsOn(service)) expect(services, `${name} depends on ${dep}`).toHaveProperty(dep);
      for (const m of mountsOf(service)) {
        if (!m.bind) expect(compose.volumes ?? {}, `${name}: volume ${m.source}`).toHaveProperty(m.source);
      }
    }
  });

  it('orders start-up: schema job -> server -> namespace job -> app', () => {
    const cond = (svc: string, dep: string) => (services[svc].depends_on as Record<string, { condition?: string }>)?.[dep]?.condition;
    expect(cond('temporal-admin-tools', 'postgres')).toBe('service_healthy');
    expect(cond('temporal', 'temporal-admin-tools')).toBe('service_completed_successfully');
    expect(cond('temporal-create-namespace', 'temporal')).toBe('service_healthy');
    for (const app of ['gateway', 'worker', 'browser-host']) {
      expect(cond(app, 'postgres')).toBe('service_healthy');
      expect(cond(app, 'temporal-create-namespace')).toBe('service_completed_successfully');
    }
    for (const name of ['postgres', 'temporal']) expect(services[name]).toHaveProperty('healthcheck');
  });

  it("checks each app's health on its ready endpoint, on the port it is told to serve it on", () => {
    const readyUrls = {
      gateway: `http://127.0.0.1:${environmentOf(services.gateway).PORT}/health/ready`,
      worker: `http://127.0.0.1:${environmentOf(services.worker).WORKER_OPS_PORT}/ready`,
      'browser-host': `http://127.0.0.1:${environmentOf(services['browser-host']).BROWSER_HOST_OPS_PORT}/ready`,
    };
    for (const [name, url] of Object.entries(readyUrls)) {
      expect(services[name].healthcheck?.test, name).toEqual(['CMD', 'node', 'scripts/probe-ready.mjs', url]);
    }
    expect(existsSync(join(ROOT, 'scripts', 'probe-ready.mjs'))).toBe(true);
  });

  it('writes healthcheck arguments without spaces (podman joins them and splits them again at spaces)', () => {
    for (const [name, service] of Object.entries(services)) {
      const [kind, ...args] = service.healthcheck?.test ?? [];
      if (kind !== 'CMD') continue;
      for (const arg of args) expect(arg, name).not.toMatch(/\s/);
    }
  });

  it('points the app at the compose Postgres and Temporal', () => {
    for (const name of ['gateway', 'worker', 'browser-host']) {
      const env = environmentOf(services[name]);
      const url = new URL(env.DATABASE_URL);
      expect(url.protocol, name).toMatch(/^postgres(ql)?:$/);
      expect(url.hostname, name).toBe('postgres');
      expect(url.pathname, name).toBe('/crawl');
      expect(env.TEMPORAL_ADDRESS, name).toBe('temporal:7233');
      expect(services).toHaveProperty(env.TEMPORAL_ADDRESS.split(':')[0]);
    }
  });

  it('gives the worker a shutdown window, shared memory and an init', () => {
    const worker = services.worker;
    const graceMs = Number(environmentOf(worker).WORKER_SHUTDOWN_GRACE_MS ?? 30_000);
    expect(durationMs(worker.stop_grace_period ?? '10s')).toBeGreaterThan(graceMs);
    expect(worker.shm_size).toBe('1gb');
    expect(worker.init).toBe(true);
  });

  it('publishes only the gateway (API keys) on all interfaces; Temporal and its UI on the loopback by default', () => {
    for (const [name, service] of Object.entries(services)) {
      for (const port of publishedPorts(service)) {
        if (name === 'gateway') continue;
        expect(port.hostIp, `${name} publishes ${port.target} on every interface`).toMatch(/^(127\.0\.0\.1|::1)$/);
      }
    }
    expect(publishedPorts(services.temporal)).toEqual([{ hostIp: '127.0.0.1', hostPort: '7233', target: '7233' }]);
    expect(publishedPorts(services['temporal-ui'])).toEqual([{ hostIp: '127.0.0.1', hostPort: '8233', target: '8080' }]);
    expect(publishedPorts(services.postgres)).toEqual([]);
    expect(publishedPorts(services.gateway).map((p) => p.target)).toEqual(['3002']);
  });

  it("lets the worker's Chromium sandbox start, and refuses crawls of the deployment's own listeners", () => {
    for (const name of ['worker', 'browser-host']) {
      expect(services[name].security_opt).toContain('seccomp=unconfined');
      expect(environmentOf(services[name]).CHROMIUM_SANDBOX).toBeUndefined();
    }
    for (const name of ['gateway', 'worker', 'browser-host']) {
      const refused = (environmentOf(services[name]).CRAWL_REFUSED_ENDPOINTS ?? '').split(',');
      expect(refused, name).toEqual(expect.arrayContaining(['gateway:3002', 'temporal-ui:8080', 'browser-host:3010']));
      for (const entry of refused) expect(services, `${name}: ${entry}`).toHaveProperty(entry.split(':')[0]);
    }
  });

  it('pins every image version', () => {
    for (const [name, service] of Object.entries(services)) {
      if (service.build || !service.image) continue;
      const tag = service.image.split(':')[1];
      expect(tag, `${name}: ${service.image}`).toBeTruthy();
      expect(tag, `${name}: ${service.image}`).not.toBe('latest');
    }
    expect(services.postgres.image).toBe('postgres:16');
    expect(services.temporal.image).toBe('temporalio/server:1.30.1');
    expect(services['temporal-admin-tools'].image).toBe('temporalio/admin-tools:1.30.1');
    expect(services['temporal-create-namespace'].image).toBe('temporalio/admin-tools:1.30.1');
    expect(services['temporal-ui'].image).toBe('temporalio/ui:2.34.0');
  });

  it("gives each browser-host replica a relay URL of its own: the container's hostname", () => {
    const host = services['browser-host'];
    expect(environmentOf(host).BROWSER_HOST_URL).toBeUndefined();
    const script = splitCommand(host.command)[2] ?? '';
    expect(script).toContain(`BROWSER_HOST_URL=ws://$$(hostname):${environmentOf(host).BROWSER_HOST_PORT}`);
  });

  it('turns task-queue fairness on in the Temporal server, as the dev server of npm start has it', () => {
    const config = parse(readFileSync(join(ROOT, 'docker', 'temporal-dynamicconfig.yaml'), 'utf8')) as Record<string, { value: unknown }[]>;
    expect(config['matching.enableFairness']?.[0]?.value).toBe(true);
  });

  it('registers the search attributes the app uses', () => {
    const script = readFileSync(join(ROOT, 'docker', 'temporal-namespace.sh'), 'utf8');
    for (const [name, type] of [
      ['TeamId', 'Keyword'],
      ['CrawlId', 'Keyword'],
      ['CrawlStatus', 'Keyword'],
      ['PagesCrawled', 'Int'],
      ['PagesQueued', 'Int'],
      ['SessionStatus', 'Keyword'],
    ]) {
      expect(script).toMatch(new RegExp(`ensure_attribute ${name} ${type}\\b`));
    }
  });
});

describe('Dockerfile', () => {
  const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
  // Join continuation lines, drop comments and blank lines.
  const instructions = dockerfile
    .replace(/\\\r?\n/g, ' ')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const dockerignore = existsSync(join(ROOT, '.dockerignore'))
    ? readFileSync(join(ROOT, '.dockerignore'), 'utf8')
        .split(/\r?\n/)
        .map((l) => l.trim())
        .filter((l) => l && !l.startsWith('#') && !l.startsWith('!'))
        .map((l) => l.replace(/^\/+|\/+$/g, ''))
    : [];

  // ARG defaults given before the first FROM, which FROM lines may use.
  const fromArgs = new Map(
    instructions
      .slice(
        0,
        instructions.findIndex((l) => /^FROM\s/i.test(l)),
      )
      .map((l) => /^ARG\s+(\w+)=(\S+)/i.exec(l))
      .filter((m) => m !== null)
      .map((m) => [m[1], m[2]]),
  );

  it('is Debian-based, not Alpine', () => {
    const stages = new Set<string>();
    const froms = instructions.filter((l) => /^FROM\s/i.test(l)).map((l) => l.replace(/\$\{(\w+)\}/g, (_m, name: string) => fromArgs.get(name) ?? ''));
    expect(froms.length).toBeGreaterThan(0);
    for (const from of froms) {
      const words = from
        .split(/\s+/)
        .slice(1)
        .filter((w) => !w.startsWith('--'));
      const image = words[0];
      if (words[1]?.toLowerCase() === 'as' && words[2]) stages.add(words[2]);
      if (stages.has(image)) continue;
      expect(image, from).not.toMatch(/alpine/i);
      expect(image, from).toMatch(/bookworm|trixie|bullseye|debian/);
    }
  });

  it('copies only sources that exist in the repo and are in the build context', () => {
    const copies = instructions.filter((l) => /^(COPY|ADD)\s/i.test(l));
    expect(copies.length).toBeGreaterThan(0);
    for (const copy of copies) {
      const rest = copy.replace(/^(COPY|ADD)\s+/i, '');
      let words: string[];
      if (rest.replace(/^(--\S+\s+)*/, '').startsWith('[')) {
        words = [...rest.matchAll(/--\S+/g)].map((m) => m[0]);
        words.push(...(JSON.parse(rest.replace(/^(--\S+\s+)*/, '')) as string[]));
      } else {
        words = rest.split(/\s+/);
      }
      if (words.some((w) => w.startsWith('--from='))) continue;
      const sources = words.filter((w) => !w.startsWith('--')).slice(0, -1);
      expect(sources.length, copy).toBeGreaterThan(0);
      for (const source of sources) {
        const path = normalize(join(ROOT, source));
        expect(existsSync(path), `${copy}: ${source} must exist in the repo`).toBe(true);
        const rel = relative(ROOT, path);
        if (rel === '') continue;
        const ignoredBy = dockerignore.find((pattern) => rel === pattern || rel.startsWith(`${pattern}/`));
        expect(ignoredBy, `${copy}: ${source} is excluded by .dockerignore`).toBeUndefined();
      }
    }
  });

  it('runs Chromium from Debian as a non-root user under tini', () => {
    expect(dockerfile).toMatch(/apt-get install[^\n]*(\\\n[^\n]*)*\bchromium-headless-shell\b/);
    expect(dockerfile).toMatch(/CHROMIUM_PATH=\/usr\/lib\/chromium\/chromium-headless-shell/);
    expect(dockerfile).toMatch(/PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1/);
    expect(dockerfile).toMatch(/\bnpm ci\b/);
    expect(dockerfile).toMatch(/prisma generate/);
    const users = instructions.filter((l) => /^USER\s/i.test(l));
    expect(users.length).toBeGreaterThan(0);
    expect(users.at(-1)).not.toMatch(/^USER\s+(root|0)(:|$)/i);
    expect(instructions.find((l) => /^ENTRYPOINT\s/i.test(l))).toMatch(/tini/);
    expect(instructions.some((l) => /^EXPOSE\s+.*\b3002\b/i.test(l))).toBe(true);
  });

  it('takes its base as a build argument, a registry image with Node by default', () => {
    expect(fromArgs.get('BASE_IMAGE')).toMatch(/^node:24-bookworm/);
    expect(instructions.find((l) => /^FROM\s/i.test(l))).toMatch(/^FROM \$\{BASE_IMAGE\}/);
  });

  it('installs what the browser host needs: bubblewrap, python3 and Playwright for Python as npm start has it', () => {
    expect(dockerfile).toMatch(/apt-get install[^\n]*(\\\n[^\n]*)*\bbubblewrap\b/);
    expect(dockerfile).toMatch(/apt-get install[^\n]*(\\\n[^\n]*)*\bpython3\b/);
    const bootstrap = readFileSync(join(ROOT, 'scripts', 'bootstrap.mjs'), 'utf8');
    const version = /'playwright==([\d.]+)'/.exec(bootstrap)?.[1];
    expect(version).toBeDefined();
    expect(dockerfile).toContain(`PLAYWRIGHT_PYTHON_VERSION=${version}`);
    expect(dockerfile).toMatch(/PYTHON_PACKAGES_PATH=\/opt\/python/);
  });

  it('builds the workflow bundle once, and workers load it', () => {
    const bundle = /TEMPORAL_WORKFLOW_BUNDLE=(\S+)/.exec(dockerfile)?.[1];
    expect(bundle).toBeDefined();
    expect(instructions).toContain(`RUN node ${TYPESCRIPT_NODE_ARGS.join(' ')} scripts/bundle-workflows.ts "$TEMPORAL_WORKFLOW_BUNDLE"`);
  });
});
