// The HTTP path's own crawler (CRAWL_RENDERING=auto or http). `lanes` loops
// each load one page at a time and hold one team slot while they have pages.
// They share a queue that is topped up from the batch's source as it runs low,
// as the browser path's is, so a lane never waits for the others to finish a
// round. A lane lets its slot go between pages when another runner of the batch
// waits for one or its crawl holds more than its share (jobs/batch/batch-leases.ts).
// A page's conversion and rows are written behind its lane (StoreQueue):
// the lane fetches its next page meanwhile, and a slow database slows the lanes
// down instead of piling pages up. A lane that stays without work frees its slot.
import { StoreQueue } from '../../page/store-queue.ts';

/**
 * Pages a lane may have waiting for their rows: the writes of many pages are grouped into one
 * transaction (group commit), so a deeper queue makes fewer, larger transactions.
 */
const STORES_PER_LANE = 4;

export interface LaneSupply<T> {
  targets: T[];
  /** No more targets will come. */
  exhausted: boolean;
}

export interface LaneSlot {
  waitedMs: number;
  /** Asked between pages: true lets the slot go (another runner waits for one, or the crawl is over its share); the lane takes one again. */
  shouldPass?(): boolean;
  release(): Promise<void>;
}

export interface HttpLanesOptions<T> {
  lanes: number;
  /** Up to `room` more targets; asked whenever the queue holds fewer than `lanes`. */
  more(room: number): Promise<LaneSupply<T>>;
  /** Taken by a lane once it has a page, held until it runs out (a team slot). */
  openLane(): Promise<LaneSlot>;
  /**
   * Loads a page in its lane (`waitedMs`: how long it waited for the lane's slot). Returns the
   * rest of its work, run behind the lane, or nothing when the page is settled or handed on.
   */
  load(target: T, waitedMs: number): Promise<(() => Promise<void>) | void>;
  /** Checked before each page: true stops the lanes, and the queued targets go to `giveBack`. */
  stopTaking(): boolean;
  giveBack(target: T): Promise<void>;
  signal: AbortSignal;
  /** How soon a source that had nothing is asked again, unless a page is stored first. */
  pollMs: number;
}

export interface HttpLanes {
  /** Settles once every lane has stopped and every store is written. */
  done: Promise<void>;
  /**
   * Asks the source again now and wakes lanes that wait for it: another runner of the batch
   * stored links, which would otherwise wait for the next poll.
   */
  askNow(): Promise<void>;
}

export function startHttpLanes<T>(opts: HttpLanesOptions<T>): HttpLanes {
  const lanes = new LaneSet(opts);
  return { done: lanes.run(), askNow: () => lanes.askNow() };
}

/** The lanes' shared queue, the source's refills and pauses, and the stores written behind the lanes. */
class LaneSet<T> {
  private readonly queue: T[] = [];
  private exhausted = false;
  private failure: { error: unknown } | undefined;
  private readonly stores: StoreQueue;
  private refilling: Promise<boolean> | undefined;
  private pausing: Promise<void> | undefined;
  // Wakes lanes that wait for the source because a stored page may have queued links.
  private nudge: (() => void) | undefined;

  constructor(private readonly opts: HttpLanesOptions<T>) {
    this.stores = new StoreQueue(opts.lanes * STORES_PER_LANE, (error) => this.fail(error));
  }

  /** Settles once every lane has stopped and every store is written. */
  async run(): Promise<void> {
    const { opts, queue } = this;
    await Promise.all(Array.from({ length: Math.max(1, opts.lanes) }, () => this.lane()));
    await this.refilling;
    // Targets claimed but never loaded (the lanes were told to stop) go back to the source.
    if (!this.stopped()) for (const target of queue.splice(0)) await opts.giveBack(target);
    await this.stores.drain().catch((error: unknown) => this.fail(error));
    if (this.failure) throw this.failure.error;
  }

  async askNow(): Promise<void> {
    // A refill in flight may have asked before the links were stored: ask once more after it.
    await this.refilling;
    if (this.exhausted || this.stopped()) return;
    if (await this.refill()) this.nudge?.();
  }

  private fail(error: unknown): void {
    this.failure ??= { error };
  }

  private stopped(): boolean {
    return this.failure !== undefined || this.opts.signal.aborted;
  }

  /** Asks the source once; true when it gave targets. When it had nothing, the lanes pause (`pausing`). */
  private refill(): Promise<boolean> {
    return (this.refilling ??= this.askSource()
      .catch((error: unknown) => {
        this.fail(error);
        return false;
      })
      .finally(() => (this.refilling = undefined)));
  }

  private async askSource(): Promise<boolean> {
    const { opts, queue } = this;
    const supply = await opts.more(Math.max(1, 2 * opts.lanes - queue.length));
    queue.push(...supply.targets);
    this.exhausted = supply.exhausted;
    if (supply.targets.length === 0 && !this.exhausted) void this.pause();
    return supply.targets.length > 0;
  }

  /** Until the next poll, or a nudge: lanes that found the queue empty wait here. */
  private pause(): Promise<void> {
    return (this.pausing ??= new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, this.opts.pollMs);
      this.nudge = () => {
        clearTimeout(timer);
        resolve();
      };
    }).finally(() => {
      this.nudge = undefined;
      this.pausing = undefined;
    }));
  }

  /**
   * The lane's next page, undefined when the lanes are done. `idle` runs when the lane has waited
   * through one refill without getting a page: a short gap (the source being asked, links about to
   * be stored) keeps the lane's slot rather than giving it up and taking it again.
   */
  private async next(idle: () => Promise<void>): Promise<T | undefined> {
    const { opts, queue } = this;
    for (let waited = false; ; waited = true) {
      if (this.stopped() || opts.stopTaking()) return undefined;
      if (queue.length > 0) {
        const target = queue.shift()!;
        if (queue.length < opts.lanes && !this.exhausted && !this.pausing) void this.refill();
        return target;
      }
      if (this.exhausted && !this.refilling) return undefined;
      if (waited) await idle();
      if (!this.pausing) await this.refill();
      await this.pausing;
    }
  }

  /** One lane: loads a page at a time, holding its slot while it has pages. */
  private async lane(): Promise<void> {
    const { opts } = this;
    let slot: LaneSlot | undefined;
    const idle = async () => {
      const held = slot;
      slot = undefined;
      await held?.release();
    };
    try {
      for (let target = await this.next(idle); target !== undefined; target = await this.next(idle)) {
        if (slot?.shouldPass?.()) await idle();
        let waitedMs = 0;
        if (!slot) {
          slot = await opts.openLane();
          waitedMs = slot.waitedMs;
        }
        const rest = await opts.load(target, waitedMs);
        if (rest) await this.stores.add(() => rest().finally(() => this.nudge?.()));
      }
    } catch (error) {
      this.fail(error);
    } finally {
      await idle();
    }
  }
}
