// What the benchmarks read of running processes from /proc: RSS and CPU time,
// of one process or of its whole tree (a worker and its Chromiums, PostgreSQL's
// postmaster and its backends), open descriptors and TCP ports.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

interface ProcessEntry {
  ppid: number;
  rss: number;
  /** CPU seconds of the process itself. */
  cpu: number;
  /** CPU seconds of its children that have exited and been waited for. */
  reaped: number;
  cmdline: string;
}

const TICKS_PER_SECOND = 100;

function stat(pid: number | 'self'): Pick<ProcessEntry, 'ppid' | 'cpu' | 'reaped'> {
  // Fields after the command name: ppid is field 4, utime, stime, cutime, cstime are fields 14-17.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
    .replace(/^.*\) /, '')
    .split(' ')
    .map(Number);
  return { ppid: fields[1]!, cpu: (fields[11]! + fields[12]!) / TICKS_PER_SECOND, reaped: (fields[13]! + fields[14]!) / TICKS_PER_SECOND };
}

function processTable(): Map<number, ProcessEntry> {
  const table = new Map<number, ProcessEntry>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const pid = Number(entry);
      const status = readFileSync(`/proc/${entry}/status`, 'utf8');
      const rss = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
      table.set(pid, { ...stat(pid), rss, cmdline: readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ') });
    } catch {
      // The process ended while we looked.
    }
  }
  return table;
}

function treePids(table: Map<number, ProcessEntry>, root: number): number[] {
  const children = new Map<number, number[]>();
  for (const [pid, p] of table) children.set(p.ppid, [...(children.get(p.ppid) ?? []), pid]);
  const found: number[] = [];
  const stack = [root];
  while (stack.length) {
    const pid = stack.pop()!;
    if (table.has(pid)) found.push(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return found;
}

function tree(table: Map<number, ProcessEntry>, root: number): ProcessEntry[] {
  return treePids(table, root).map((pid) => table.get(pid)!);
}

/** A process and all its descendants, as they are now. */
export function processTree(root: number): number[] {
  return treePids(processTable(), root);
}

/** RSS in bytes of a process, and of it plus all its descendants. */
export function rss(pid: number): { own: number; tree: number } {
  const table = processTable();
  return { own: table.get(pid)?.rss ?? 0, tree: tree(table, pid).reduce((sum, p) => sum + p.rss, 0) };
}

/** CPU seconds of a process itself, and of its children that have exited (its ended Chromiums). */
export function cpu(pid: number | 'self'): { own: number; reaped: number } {
  const { cpu: own, reaped } = stat(pid);
  return { own, reaped };
}

/** CPU seconds of a process and its descendants, exited ones too (each live process counts what it reaped). */
export function cpuOfTree(root: number): number {
  return treeCpu(processTable(), root);
}

function treeCpu(table: Map<number, ProcessEntry>, root: number): number {
  return tree(table, root).reduce((sum, p) => sum + p.cpu + p.reaped, 0);
}

/**
 * CPU seconds of the process trees whose root's command line contains each marker (a scratch
 * folder, say), descendants included, exited ones too: a tree's live processes count their own
 * time and that of the children they have reaped.
 */
export function cpuOfTrees(markers: Record<string, string>): Record<string, number> {
  const table = processTable();
  const sums: Record<string, number> = {};
  for (const [name, marker] of Object.entries(markers)) {
    const roots = [...table].filter(([, p]) => p.cmdline.includes(marker) && !table.get(p.ppid)?.cmdline.includes(marker)).map(([pid]) => pid);
    sums[name] = roots.reduce((sum, root) => sum + treeCpu(table, root), 0);
  }
  return sums;
}

/** Open file descriptors of a process (0 once it is gone). */
export function openFds(pid: number): number {
  try {
    return readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return 0;
  }
}

/** A process's proportional set size, and the part of it that is shared memory (PostgreSQL's buffers), in bytes. */
export function pss(pid: number): { pss: number; shmem: number } {
  try {
    const text = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0) * 1024;
    return { pss: kb('Pss'), shmem: kb('Pss_Shmem') };
  } catch {
    return { pss: 0, shmem: 0 };
  }
}

/** Local ports of the TCP sockets each of these processes holds open (from its descriptors and its network namespace's socket tables). */
export function tcpPortsOf(pids: number[]): Map<number, Set<number>> {
  const portOfInode = new Map<string, number>();
  for (const table of ['tcp', 'tcp6']) {
    let text: string;
    try {
      text = readFileSync(`/proc/self/net/${table}`, 'utf8');
    } catch {
      continue;
    }
    // Columns: sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode …
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length > 9) portOfInode.set(cols[9]!, parseInt(cols[1]!.split(':')[1]!, 16));
    }
  }
  const ports = new Map<number, Set<number>>();
  for (const pid of pids) {
    const mine = new Set<number>();
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      fds = []; // The process is gone.
    }
    for (const fd of fds) {
      try {
        const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1];
        const port = inode === undefined ? undefined : portOfInode.get(inode);
        if (port !== undefined) mine.add(port);
      } catch {
        // The descriptor was closed while we looked.
      }
    }
    ports.set(pid, mine);
  }
  return ports;
}
