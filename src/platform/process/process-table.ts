// The Linux process table as a metric needs it: which processes descend from
// this one, what they are and how much memory they hold, read from /proc. Other
// systems have no /proc: there the table is empty, so what is built on it
// reports nothing rather than wrong numbers.
import { readdir, readFile } from 'node:fs/promises';

export interface ProcessEntry {
  pid: number;
  ppid: number;
  /** The kernel's name of the process (comm: at most 15 characters of the executable's name). */
  name: string;
  /** One letter: R running, S sleeping, Z zombie, ... */
  state: string;
}

/**
 * One line of /proc/<pid>/stat. The name sits in parentheses and may itself hold spaces and
 * parentheses, so the fields after it are found from the last ")".
 */
export function parseStat(text: string): ProcessEntry | undefined {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) return undefined;
  const pid = Number(text.slice(0, open).trim());
  const [state, ppid] = text
    .slice(close + 1)
    .trim()
    .split(' ');
  if (!Number.isInteger(pid) || !state || !Number.isInteger(Number(ppid))) return undefined;
  return { pid, ppid: Number(ppid), name: text.slice(open + 1, close), state };
}

/** Resident memory in bytes from /proc/<pid>/status (VmRSS, in kB); 0 when absent, as for a zombie. */
export function parseResidentBytes(status: string): number {
  const match = /^VmRSS:\s*(\d+)\s*kB$/m.exec(status);
  return match ? Number(match[1]) * 1024 : 0;
}

/**
 * The arguments of /proc/<pid>/cmdline as one line. Programs that rewrite their title (Chromium's
 * child processes do) leave one string with spaces instead of NUL-separated arguments; either way
 * the arguments end up separated by single spaces.
 */
export function parseCommandLine(raw: string): string {
  return raw.replace(/\0+$/, '').replaceAll('\0', ' ');
}

/** Every process below `root` in the tree (children, their children, ...), not `root` itself. */
export function descendantsOf(root: number, table: ProcessEntry[]): ProcessEntry[] {
  const children = new Map<number, ProcessEntry[]>();
  for (const entry of table) {
    const siblings = children.get(entry.ppid);
    if (siblings) siblings.push(entry);
    else children.set(entry.ppid, [entry]);
  }
  const found: ProcessEntry[] = [];
  const queue = [root];
  const seen = new Set(queue);
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()!) ?? []) {
      if (seen.has(child.pid)) continue;
      seen.add(child.pid);
      found.push(child);
      queue.push(child.pid);
    }
  }
  return found;
}

/** A file of /proc/<pid>; undefined when the process has gone meanwhile (or cannot be read). */
async function procFile(pid: number, file: string): Promise<string | undefined> {
  try {
    return await readFile(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return undefined;
  }
}

/** Every process of the machine (of this process's PID namespace); empty where there is no /proc. */
export async function readProcessTable(): Promise<ProcessEntry[]> {
  if (process.platform !== 'linux') return [];
  const pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name)).map(Number);
  const entries = await Promise.all(pids.map(async (pid) => parseStat((await procFile(pid, 'stat')) ?? '')));
  return entries.filter((e): e is ProcessEntry => e !== undefined);
}

/** A process's command line and resident memory; undefined once it has gone. */
export async function readProcessDetails(pid: number): Promise<{ commandLine: string; residentBytes: number } | undefined> {
  const [cmdline, status] = await Promise.all([procFile(pid, 'cmdline'), procFile(pid, 'status')]);
  if (cmdline === undefined || status === undefined) return undefined;
  return { commandLine: parseCommandLine(cmdline), residentBytes: parseResidentBytes(status) };
}
