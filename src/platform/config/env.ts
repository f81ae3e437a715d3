// The only code that reads the environment for a setting. Each section of the
// settings (a `config.ts` beside the code it configures) reads its variables
// through these, and src/config.ts composes the sections into the one `Config`
// every process loads at start. Every variable is documented in the settings
// table of docs/operations.md; add new ones there too.

export const MB = 1024 * 1024;

/** The variable's value; unset and empty are the same. */
export function str(name: string): string | undefined {
  const v = process.env[name];
  return v === undefined || v === '' ? undefined : v;
}

export function int(name: string, fallback: number): number {
  const v = str(name);
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isInteger(n)) throw new Error(`${name} must be an integer, got "${v}"`);
  return n;
}

export function positiveInt(name: string, fallback: number, formerName?: string): number {
  if (formerName && str(formerName) !== undefined) throw new Error(`${formerName} was renamed to ${name}; set that instead`);
  const n = int(name, fallback);
  if (n < 1) throw new Error(`${name} must be at least 1, got ${n}`);
  return n;
}

export function boundedInt(name: string, fallback: number, min: number, max: number, why: string): number {
  const n = int(name, fallback);
  if (n < min || n > max) throw new Error(`${name} must be between ${min} and ${max} (${why}), got ${n}`);
  return n;
}

export function nonNegativeInt(name: string, fallback: number): number {
  const n = int(name, fallback);
  if (n < 0) throw new Error(`${name} must be 0 or more, got ${n}`);
  return n;
}

export function bool(name: string, fallback: boolean): boolean {
  const v = str(name);
  if (v === undefined) return fallback;
  if (['1', 'true', 'yes', 'on'].includes(v.toLowerCase())) return true;
  if (['0', 'false', 'no', 'off'].includes(v.toLowerCase())) return false;
  throw new Error(`${name} must be true or false, got "${v}"`);
}

export function oneOf<T extends string>(name: string, values: readonly T[], fallback: T): T {
  const v = str(name);
  if (v === undefined) return fallback;
  if (!(values as readonly string[]).includes(v)) throw new Error(`${name} must be ${values.join(' or ')}, got "${v}"`);
  return v as T;
}

/** The named variables that are set, and nothing else. */
export function pick(names: readonly string[]): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of names) {
    const v = str(name);
    if (v !== undefined) picked[name] = v;
  }
  return picked;
}

/** Comma-separated `host:port` pairs (IPv6 in brackets). */
export function endpoints(name: string): { host: string; port: number }[] {
  return (str(name) ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '')
    .map((entry) => {
      const match = /^(?:\[([^\]]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(entry);
      const port = Number(match?.[3]);
      if (!match || port < 1 || port > 65535) throw new Error(`${name} must list host:port pairs such as temporal-ui:8080 or [fd00::5]:5432, got "${entry}"`);
      return { host: match[1] ?? match[2], port };
    });
}
