// The embedded PostgreSQL's superuser password: random per data dir, kept in
// <data dir>/postgres.password (0600, owner only). Whoever can read that file is
// trusted with the database; everyone else on the machine reaching the port gets
// nothing.
import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const PASSWORD_FILE = 'postgres.password';

export function passwordPath(dataDir: string): string {
  return join(dataDir, PASSWORD_FILE);
}

export function readPassword(dataDir: string): string | undefined {
  const path = passwordPath(dataDir);
  if (!existsSync(path)) return undefined;
  const password = readFileSync(path, 'utf8').trim();
  return password || undefined;
}

/** 256 random bits, URL-safe so the password can go into DATABASE_URL as is. */
export function newPassword(): string {
  return randomBytes(32).toString('base64url');
}

export function writePassword(dataDir: string, password: string): void {
  const path = passwordPath(dataDir);
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${password}\n`, { mode: 0o600 });
  renameSync(tmp, path);
}

/**
 * The SCRAM-SHA-256 verifier PostgreSQL stores for `password` (RFC 5802/7677).
 * Setting the role's password to the verifier keeps the password itself out of
 * the server's log, which would echo a statement that failed.
 */
export function scramVerifier(password: string, salt = randomBytes(16), iterations = 4096): string {
  const salted = pbkdf2Sync(password, salt, iterations, 32, 'sha256');
  const hmac = (key: Buffer, text: string) => createHmac('sha256', key).update(text).digest();
  const storedKey = createHash('sha256').update(hmac(salted, 'Client Key')).digest();
  const serverKey = hmac(salted, 'Server Key');
  return `SCRAM-SHA-256$${iterations}:${salt.toString('base64')}$${storedKey.toString('base64')}:${serverKey.toString('base64')}`;
}
