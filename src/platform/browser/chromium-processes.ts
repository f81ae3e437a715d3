// The Chromium processes this process started (scrape batches' browsers in a
// worker, sessions' browsers in a browser host) with all of theirs: renderers,
// the GPU process, utilities and zygotes are children or grandchildren of the
// browser process, which is a child of ours.
import { descendantsOf, readProcessDetails, readProcessTable } from '../process/process-table.ts';

export const CHROMIUM_ROLES = ['browser', 'renderer', 'gpu', 'utility', 'zygote', 'other'] as const;
export type ChromiumRole = (typeof CHROMIUM_ROLES)[number];

// chromium, chrome, chromium-headless-shell (its name cut to 15 characters), Playwright's headless_shell.
const CHROMIUM_NAMES = /^(chromium|chrome|headless_shell)/;

/** Whether a process of this kernel name is a Chromium (the crash handler is not: it holds no pages). */
export function isChromium(name: string): boolean {
  return CHROMIUM_NAMES.test(name) && !name.startsWith('chrome_crashpad');
}

/** A Chromium process's role, from the `--type=` its parent gives it; none is the browser process itself. */
export function chromiumRole(commandLine: string): ChromiumRole {
  const type = /(?:^| )--type=(\S+)/.exec(commandLine)?.[1];
  if (type === undefined) return 'browser';
  if (type === 'gpu-process') return 'gpu';
  return (CHROMIUM_ROLES as readonly string[]).includes(type) ? (type as ChromiumRole) : 'other';
}

export interface ChromiumProcess {
  pid: number;
  role: ChromiumRole;
  residentBytes: number;
}

/** This process's Chromium descendants that are alive (zombies hold no memory and no page). */
export async function chromiumProcesses(): Promise<ChromiumProcess[]> {
  const ours = descendantsOf(process.pid, await readProcessTable()).filter((p) => p.state !== 'Z' && isChromium(p.name));
  const found = await Promise.all(
    ours.map(async ({ pid }) => {
      const details = await readProcessDetails(pid);
      return details && { pid, role: chromiumRole(details.commandLine), residentBytes: details.residentBytes };
    }),
  );
  return found.filter((p): p is ChromiumProcess => p !== undefined);
}
