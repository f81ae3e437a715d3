// How many Chromium processes this process runs and the memory they hold, by
// role, read from the process table when scraped. Imported by the processes that
// start Chromium (the worker, the browser host); elsewhere, and on systems
// without /proc, the gauges have no values.
import { sampledGauge, type Sample } from '../metrics/sampled-gauge.ts';
import { CHROMIUM_ROLES, chromiumProcesses, type ChromiumProcess, type ChromiumRole } from './chromium-processes.ts';

// Both gauges are read in the same scrape: they share one walk of the process table.
const SHARED_READ_MS = 1_000;
let lastRead: { at: number; processes: Promise<ChromiumProcess[]> } | undefined;

function currentProcesses(): Promise<ChromiumProcess[]> {
  if (!lastRead || Date.now() - lastRead.at >= SHARED_READ_MS) lastRead = { at: Date.now(), processes: chromiumProcesses() };
  return lastRead.processes;
}

/** One value per role, zero included, so that a dashboard sees 0 rather than no series. */
async function byRole(value: (p: ChromiumProcess) => number): Promise<Sample<'role'>> {
  if (process.platform !== 'linux') return [];
  const totals = new Map<ChromiumRole, number>(CHROMIUM_ROLES.map((role) => [role, 0]));
  for (const p of await currentProcesses()) totals.set(p.role, totals.get(p.role)! + value(p));
  return [...totals].map(([role, total]) => ({ labels: { role }, value: total }));
}

sampledGauge({
  name: 'chromium_processes',
  help: 'Chromium processes this process started and theirs, by role (browser, renderer, gpu, utility, zygote, other); Linux only',
  labelNames: ['role'],
  read: () => byRole(() => 1),
});

sampledGauge({
  name: 'chromium_resident_memory_bytes',
  help: 'Resident memory (RSS) of this process’s Chromium processes summed by role; pages shared between them count once per process; Linux only',
  labelNames: ['role'],
  read: () => byRole((p) => p.residentBytes),
});
