// Secrets the service makes for itself (service_secret rows): the first process to ask
// creates one, every gateway replica then reads the same value, so nothing has to be
// configured or kept in step between replicas.
import { randomBytes } from 'node:crypto';
import type { Db } from './prisma.ts';

const cache = new WeakMap<Db, Map<string, Promise<Buffer>>>();

async function load(db: Db, name: string): Promise<Buffer> {
  // Of replicas asking at once, one insert wins; the select sees the winner's value.
  await db.$executeRaw`INSERT INTO service_secret (name, value) VALUES (${name}, ${randomBytes(32).toString('base64')}) ON CONFLICT (name) DO NOTHING`;
  const row = await db.serviceSecret.findUniqueOrThrow({ where: { name } });
  return Buffer.from(row.value, 'base64');
}

/** The 32-byte secret called `name`, created on first use and kept for the process's life. */
export function serviceSecret(db: Db, name: string): Promise<Buffer> {
  let secrets = cache.get(db);
  if (!secrets) cache.set(db, (secrets = new Map()));
  let secret = secrets.get(name);
  if (!secret) {
    secret = load(db, name);
    // A failed read is not kept: the next request tries again.
    secret.catch(() => secrets.delete(name));
    secrets.set(name, secret);
  }
  return secret;
}
