// What podman's network backend changes on the host and leaves behind: netavark
// adds iptables chains and rules for every network and sets
// net.ipv4.ip_forward=1, and `docker-compose down` undoes neither. The compose
// test records both before it starts and puts them back afterwards, removing
// only the rules and chains that were not there before.
import { readFileSync, writeFileSync } from 'node:fs';
import { run } from './run-command.ts';

const IP_FORWARD = '/proc/sys/net/ipv4/ip_forward';
const TABLES = ['filter', 'nat', 'mangle'];
const TOOLS = ['iptables', 'ip6tables'];

export interface HostNetworkState {
  ipForward: string;
  /** `<tool> -t <table> -S` lines per tool and table. */
  rules: Map<string, string[]>;
}

async function rulesOf(tool: string, table: string): Promise<string[]> {
  const out = await run(tool, ['-w', '-t', table, '-S'], { allowFailure: true });
  return out.split('\n').filter(Boolean);
}

export async function recordHostNetwork(): Promise<HostNetworkState> {
  const rules = new Map<string, string[]>();
  for (const tool of TOOLS) for (const table of TABLES) rules.set(`${tool} ${table}`, await rulesOf(tool, table));
  return { ipForward: readFileSync(IP_FORWARD, 'utf8').trim(), rules };
}

/** The commands that undo what was added since `before`: new rules deleted, then new chains flushed and removed. */
export function undoCommands(before: string[], after: string[]): string[][] {
  const had = new Set(before);
  const added = after.filter((line) => !had.has(line));
  const newChains = added.filter((line) => line.startsWith('-N ')).map((line) => line.slice(3));
  const deletes = added.filter((line) => line.startsWith('-A ')).map((line) => ['-D', ...splitRule(line.slice(3))]);
  return [...deletes, ...newChains.map((chain) => ['-F', chain]), ...newChains.map((chain) => ['-X', chain])];
}

/** iptables -S quotes arguments that contain spaces (comments). */
function splitRule(rule: string): string[] {
  return [...rule.matchAll(/"((?:[^"\\]|\\.)*)"|(\S+)/g)].map((m) => (m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : m[2]));
}

export async function restoreHostNetwork(before: HostNetworkState): Promise<string[]> {
  const problems: string[] = [];
  for (const tool of TOOLS) {
    for (const table of TABLES) {
      const previous = before.rules.get(`${tool} ${table}`) ?? [];
      for (const args of undoCommands(previous, await rulesOf(tool, table))) {
        // A rule of a new chain is gone with its flush; deleting it again is no error worth reporting.
        await run(tool, ['-w', '-t', table, ...args]).catch((err: Error) => {
          if (!(args[0] === '-D' && /does a matching rule exist|No chain/.test(err.message))) problems.push(err.message.split('\n').slice(0, 2).join(' '));
        });
      }
      const left = (await rulesOf(tool, table)).filter((line) => !previous.includes(line));
      if (left.length > 0) problems.push(`${tool} -t ${table} still has: ${left.join('; ')}`);
    }
  }
  if (readFileSync(IP_FORWARD, 'utf8').trim() !== before.ipForward) writeFileSync(IP_FORWARD, `${before.ipForward}\n`);
  return problems;
}
