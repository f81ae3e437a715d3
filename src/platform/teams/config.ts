// The default team's section of the settings (src/config.ts composes them all).
import { int } from '../config/env.ts';

/** The team `npm start` makes on a new database. */
export function defaultTeamConfig() {
  return {
    credits: int('DEFAULT_TEAM_CREDITS', 1_000_000),
    concurrency: int('DEFAULT_TEAM_CONCURRENCY', 4),
  };
}

export type DefaultTeamSettings = ReturnType<typeof defaultTeamConfig>;
