// Small pieces every entry point shares: one-line fatal errors instead of stack
// traces, required settings, and exiting when the supervising `npm start` dies.

export function runMain(name: string, main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      process.stderr.write(`[${name}] cannot continue: ${err instanceof Error ? err.message : String(err)}\n`);
      if (process.env.LOG_LEVEL === 'debug' && err instanceof Error) process.stderr.write(`${err.stack}\n`);
      process.exit(1);
    },
  );
}

export function requireSetting(value: string | undefined, name: string): string {
  if (!value) throw new Error(`${name} is not set (npm start sets it; when running this process alone, point it at your server)`);
  return value;
}

/**
 * A child of `npm start` must not outlive it: when the supervisor is killed,
 * the child is re-parented, and then shuts down gracefully.
 */
export function exitWithParent(onOrphaned: () => void): void {
  if (process.env.SUPERVISED_BY_PID === undefined) return;
  const parent = Number(process.env.SUPERVISED_BY_PID);
  const timer = setInterval(() => {
    try {
      process.kill(parent, 0);
    } catch {
      clearInterval(timer);
      onOrphaned();
    }
  }, 1000);
  timer.unref();
}
