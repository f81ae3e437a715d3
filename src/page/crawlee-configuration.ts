// The Crawlee configuration every crawler of a batch runs with.
import { totalmem } from 'node:os';
import { Configuration, EventManager } from '@crawlee/core';

/**
 * Crawlee samples the machine's load so a crawler can scale itself; ours run a fixed concurrency.
 * Its local event manager samples once when a crawler starts (a `ps` spawn and a blocking
 * `cat /proc/meminfo`), and its memory signal again, awaited, unless told the memory: 16-21 ms of
 * a rendered page's start each, and their CPU (docs/benchmarks.md, single scrape). An event manager
 * of Crawlee's base class keeps only its persistState ticks, and the memory guard counts the
 * machine's memory; Crawlee's overload warnings go with the samples (the worker's /metrics has
 * its own and its Chromiums' memory).
 */
export function crawlerConfiguration(): Configuration {
  return new Configuration({ persistStorage: false, systemInfoV2: true, memoryMbytes: MACHINE_MEMORY_MB, eventManager: new PersistOnlyEvents() });
}

class PersistOnlyEvents extends EventManager {}

const MACHINE_MEMORY_MB = Math.floor(totalmem() / 1024 ** 2);
