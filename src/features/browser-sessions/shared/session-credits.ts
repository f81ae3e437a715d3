// Browser sessions cost 2 credits per started minute (as upstream bills them):
// estimated for the whole ttl when the session is created (402 when the team has
// less), charged once at teardown for the time the session really lived.

export const CREDITS_PER_SESSION_MINUTE = 2;

export function sessionCredits(durationMs: number): number {
  return CREDITS_PER_SESSION_MINUTE * Math.max(1, Math.ceil(durationMs / 60_000));
}
