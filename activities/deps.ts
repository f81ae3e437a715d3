import type { Config } from '../src/config.ts';
import type { Db } from '../src/db/prisma.ts';
import type { Logger } from '../src/log.ts';

/** What activity factories receive, so tests can pass real or local pieces. */
export interface ActivityDeps {
  db: Db;
  config: Config;
  log: Logger;
}
