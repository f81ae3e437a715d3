// podman runs healthchecks from systemd timers, which these machines do not
// have, so no container ever turns healthy by itself and compose's
// `condition: service_healthy` would wait forever. This loop runs the
// healthchecks of the project's containers itself, each at its own interval as
// the timers would (every check starts a process in the container: running all
// of them every second would cost the stack a core).
import { run } from './run-command.ts';

export interface HealthcheckLoop {
  stop(): Promise<void>;
}

interface Check {
  intervalMs: number;
  due: number;
  running: boolean;
}

/** undefined: the container has no healthcheck. */
async function checkOf(env: NodeJS.ProcessEnv, id: string): Promise<Check | undefined> {
  const json = await run('podman', ['inspect', '--format', '{{json .Config.Healthcheck}}', id], { env, allowFailure: true });
  const config = JSON.parse(json.trim() || 'null') as { Test?: string[]; Interval?: number } | null;
  if (!config?.Test?.length || config.Test[0] === 'NONE') return undefined;
  return { intervalMs: Math.max(1000, (config.Interval ?? 30e9) / 1e6), due: 0, running: false };
}

export function startHealthcheckLoop(env: NodeJS.ProcessEnv, project: string): HealthcheckLoop {
  const checks = new Map<string, Check | undefined>();
  let listing = false;
  const tick = async () => {
    const ids = (await run('podman', ['ps', '-q', '--no-trunc', '--filter', `label=com.docker.compose.project=${project}`], { env, allowFailure: true }))
      .split('\n')
      .filter(Boolean);
    for (const id of ids) if (!checks.has(id)) checks.set(id, await checkOf(env, id));
    const now = Date.now();
    for (const id of ids) {
      const check = checks.get(id);
      if (!check || check.running || check.due > now) continue;
      check.running = true;
      check.due = now + check.intervalMs;
      void run('podman', ['healthcheck', 'run', id], { env, allowFailure: true })
        .catch(() => undefined)
        .finally(() => (check.running = false));
    }
  };
  const timer = setInterval(() => {
    if (listing) return;
    listing = true;
    void tick()
      .catch(() => undefined)
      .finally(() => (listing = false));
  }, 1000);
  return {
    async stop() {
      clearInterval(timer);
      while (listing || [...checks.values()].some((c) => c?.running)) await new Promise((r) => setTimeout(r, 100));
    },
  };
}

/** The health of a container as podman reports it: starting, healthy or unhealthy. */
export async function healthOf(env: NodeJS.ProcessEnv, id: string): Promise<string> {
  return (await run('podman', ['inspect', '--format', '{{.State.Health.Status}}', id], { env, allowFailure: true })).trim();
}
