import type { Config } from '../config.ts';
import type { Db } from '../db/prisma.ts';
import type { Logger } from '../log.ts';

/** What activity factories receive, so tests can pass real or local pieces. */
export interface ActivityDeps {
  db: Db;
  config: Config;
  log: Logger;
}
