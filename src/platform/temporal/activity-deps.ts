import type { Db } from '../db/prisma.ts';
import type { Logger } from '../log.ts';

/**
 * What activity factories receive, so tests can pass real or local pieces. `C` is the part of the
 * settings they read (the sections they name; src/config.ts composes them all).
 */
export interface ActivityDeps<C = unknown> {
  db: Db;
  config: C;
  log: Logger;
}
