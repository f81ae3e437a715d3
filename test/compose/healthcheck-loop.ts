// podman runs healthchecks from systemd timers, which these machines do not
// have, so no container ever turns healthy by itself and compose's
// `condition: service_healthy` would wait forever. This loop runs every
// healthcheck of the project's containers once a second while the stack is up.
import { run } from './run-command.ts';

export interface HealthcheckLoop {
  stop(): Promise<void>;
}

export function startHealthcheckLoop(env: NodeJS.ProcessEnv, project: string): HealthcheckLoop {
  const hasCheck = new Map<string, boolean>();
  let round: Promise<void> = Promise.resolve();
  let stopped = false;
  const tick = async () => {
    const ids = (await run('podman', ['ps', '-q', '--no-trunc', '--filter', `label=com.docker.compose.project=${project}`], { env, allowFailure: true }))
      .split('\n')
      .filter(Boolean);
    for (const id of ids) {
      if (!hasCheck.has(id)) {
        const test = await run('podman', ['inspect', '--format', '{{.Config.Healthcheck}}', id], { env, allowFailure: true });
        hasCheck.set(id, !/^(<nil>|)\s*$/.test(test));
      }
    }
    await Promise.all(ids.filter((id) => hasCheck.get(id)).map((id) => run('podman', ['healthcheck', 'run', id], { env, allowFailure: true })));
  };
  const timer = setInterval(() => {
    // A round that takes longer than a second (a loaded machine) is not stacked up behind.
    round = round.then(() => (stopped ? undefined : tick().catch(() => undefined)));
  }, 1000);
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await round;
    },
  };
}

/** The health of a container as podman reports it: starting, healthy or unhealthy. */
export async function healthOf(env: NodeJS.ProcessEnv, id: string): Promise<string> {
  return (await run('podman', ['inspect', '--format', '{{.State.Health.Status}}', id], { env, allowFailure: true })).trim();
}
