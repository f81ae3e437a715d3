// What a running batch holds, in one object: the team slots its pages run under,
// its browser lease, and whether it is giving that browser up (yielding).
//
// Slot rules (docs/job-engine.md):
// - A team's limit spans every job and worker: slots are rows in PostgreSQL
//   (TeamSlotStore), leased and renewed, so a dead worker's slots lapse.
// - Inside a batch, runners (HTTP lanes, browser tabs, file loads) wait in one
//   queue, first come first served. A slot a runner lets go goes straight to the
//   next waiter of the batch; only when nobody waits is it given back to the team.
// - Crawls of one team that run at once share its limit: each may hold
//   ceil(limit / crawls running). A batch whose crawl holds more gives slots back
//   to the team at its runners' next page boundary (shouldPass), and while runners
//   of the batch wait, a lane passes its slot on at every page boundary, so a page
//   of the batch that waits is never starved by a lane that keeps finding work.
// - Nothing that holds a slot waits for something that may wait for a slot: the
//   batch's source and its page writes never take one (see file-loads.ts).
import { setTimeout as sleepFor } from 'node:timers/promises';

export interface TeamSlotStore {
  /** Leases one of the team's slots to `holder` if the team's limit and the crawl's share allow it now. */
  tryAcquire(holder: string): Promise<boolean>;
  release(holder: string): Promise<void>;
  renew(holders: string[]): Promise<void>;
  /** Slots the batch's crawl may hold now (its share of the team's limit), and how many it holds. */
  standing(): Promise<{ share: number; held: number }>;
}

export interface BrowserShare {
  renew(): Promise<void>;
  /** Another crawl's batch should have this batch's browser: its holder, or undefined. */
  shouldYield(q: { sliceUsed: boolean; idle: boolean }): Promise<string | undefined>;
}

export interface BatchSlot {
  /** How long the runner waited for the team's limit (0 when a slot was free at once). */
  waitedMs: number;
  /** True when the runner should let the slot go at its next page boundary (another waits, or the crawl is over its share). */
  shouldPass(): boolean;
  /** Lets the slot go (to the batch's next waiter, or back to the team); a second call does nothing. */
  release(): Promise<void>;
}

export interface LeaseState {
  /** Team slots the batch holds. */
  held: number;
  /** Held slots a runner is using now. */
  inUse: number;
  /** Runners waiting for a slot. */
  waiting: number;
  /** Slots the crawl held beyond its share at the last check, not yet given back. */
  excess: number;
  yielding: boolean;
  /** The holder of the batch this one is yielding to. */
  yieldingTo?: string;
}

export interface BatchLeasesOptions {
  /** Unique per batch attempt: slot holders are `<prefix>:<n>`, so a stopped attempt's late release never frees its retry's slots. */
  holderPrefix: string;
  slots: TeamSlotStore;
  browser?: BrowserShare;
  /** First and longest pause between asks for a team slot while runners wait. */
  pollMs?: { first: number; max: number };
  /** Injected by tests that control time. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

interface Waiter {
  since: number;
  /** It waited for the team's limit: a try found no free slot, or it waited for another runner's slot. */
  limited: boolean;
  give(holder: string): void;
  fail(error: unknown): void;
}

const DEFAULT_POLL = { first: 25, max: 500 };

export class BatchLeases {
  readonly #opts: BatchLeasesOptions;
  readonly #poll: { first: number; max: number };
  readonly #sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  readonly #held = new Set<string>();
  readonly #inUse = new Set<string>();
  readonly #waiters: Waiter[] = [];
  readonly #closed = new AbortController();
  /** Wakes the pump's pause: a runner started waiting, or the batch gave a slot back to the team. */
  #wake = new AbortController();
  #pumping: Promise<void> | undefined;
  #seq = 0;
  #excess = 0;
  #yieldingTo: string | undefined;
  #recalled = false;

  constructor(opts: BatchLeasesOptions) {
    this.#opts = opts;
    this.#poll = opts.pollMs ?? DEFAULT_POLL;
    this.#sleep = opts.sleep ?? ((ms, signal) => sleepFor(ms, undefined, { signal }).catch(() => undefined));
  }

  /** Giving the browser up (to another crawl, or because the batch's workflow recalled it): pages not opened yet go back. */
  get yielding(): boolean {
    return this.#yieldingTo !== undefined || this.#recalled;
  }

  /** The batch's workflow told it to stop (a pause, an adjustment): it stops as a yielding batch does. */
  get recalled(): boolean {
    return this.#recalled;
  }

  recall(): void {
    this.#recalled = true;
    this.#nudge();
  }

  state(): LeaseState {
    return {
      held: this.#held.size,
      inUse: this.#inUse.size,
      waiting: this.#waiters.length,
      excess: this.#excess,
      yielding: this.yielding,
      ...(this.#yieldingTo !== undefined && { yieldingTo: this.#yieldingTo }),
    };
  }

  /** Holders of the slots the batch holds (what its heartbeat renews). */
  holders(): string[] {
    return [...this.#held];
  }

  /** Waits for a slot; rejects with the signal's reason if `signal` (or the batch's end) comes first. */
  take(signal?: AbortSignal): Promise<BatchSlot> {
    const abort = signal ? AbortSignal.any([signal, this.#closed.signal]) : this.#closed.signal;
    if (abort.aborted) return Promise.reject(abort.reason);
    return new Promise<BatchSlot>((resolve, reject) => {
      const waiter: Waiter = {
        since: Date.now(),
        limited: false,
        give: (holder) => {
          abort.removeEventListener('abort', gaveUp);
          resolve(this.#slot(holder, waiter.limited ? Date.now() - waiter.since : 0));
        },
        fail: (error) => {
          abort.removeEventListener('abort', gaveUp);
          reject(error);
        },
      };
      const gaveUp = () => {
        const i = this.#waiters.indexOf(waiter);
        if (i >= 0) this.#waiters.splice(i, 1);
        reject(abort.reason);
      };
      abort.addEventListener('abort', gaveUp, { once: true });
      this.#waiters.push(waiter);
      this.#nudge();
      this.#ensurePump();
    });
  }

  /** Renews every slot and the browser lease. Run on the batch's heartbeat. */
  async renew(): Promise<void> {
    await Promise.all([this.#opts.slots.renew(this.holders()), this.#opts.browser?.renew()]);
  }

  /** Learns the crawl's share of the team again: what it holds beyond it is given back at the next page boundaries. */
  async checkShare(): Promise<void> {
    const { share, held } = await this.#opts.slots.standing();
    const before = this.#excess;
    this.#excess = Math.min(this.#held.size, Math.max(0, held - share));
    // The pump asks for nothing while the batch is over its share.
    if (before > 0 && this.#excess === 0) this.#nudge();
  }

  /** Asks whether another crawl should have this batch's browser; once yielding, stays so. */
  async checkYield(q: { sliceUsed: boolean; idle: boolean }): Promise<string | undefined> {
    if (this.yielding || !this.#opts.browser) return this.#yieldingTo;
    this.#yieldingTo = await this.#opts.browser.shouldYield(q);
    return this.#yieldingTo;
  }

  /** Ends every wait and gives every slot back to the team. */
  async close(): Promise<void> {
    this.#closed.abort(new Error('the batch has ended'));
    this.#nudge();
    await this.#pumping;
    const holders = this.holders();
    this.#held.clear();
    this.#inUse.clear();
    await Promise.all(holders.map((h) => this.#opts.slots.release(h)));
  }

  #slot(holder: string, waitedMs: number): BatchSlot {
    this.#inUse.add(holder);
    let released = false;
    return {
      waitedMs,
      shouldPass: () => !released && (this.#excess > 0 || this.#waiters.length > 0),
      release: async () => {
        if (released) return;
        released = true;
        await this.#letGo(holder);
      },
    };
  }

  async #letGo(holder: string): Promise<void> {
    this.#inUse.delete(holder);
    if (!this.#held.has(holder)) return;
    if (this.#excess > 0) {
      this.#excess--;
    } else {
      const next = this.#waiters.shift();
      if (next) {
        next.limited = true;
        return next.give(holder);
      }
    }
    this.#held.delete(holder);
    await this.#opts.slots.release(holder);
    // The crawl may now be under its share again, or another holder's slot may be free.
    this.#nudge();
  }

  #nudge(): void {
    this.#wake.abort();
    this.#wake = new AbortController();
  }

  #ensurePump(): void {
    if (this.#pumping) return;
    this.#pumping = this.#pump()
      // The slot store failing (the database) is not a page's fault: every waiting runner fails, and so does the batch.
      .catch((error: unknown) => {
        for (const waiter of this.#waiters.splice(0)) waiter.fail(error);
      })
      .finally(() => {
        this.#pumping = undefined;
        if (this.#waiters.length > 0 && !this.#closed.signal.aborted) this.#ensurePump();
      });
  }

  /** One loop per batch asks the team for slots while runners wait, backing off while none is free. */
  async #pump(): Promise<void> {
    let pause = this.#poll.first;
    while (this.#waiters.length > 0 && !this.#closed.signal.aborted) {
      const holder = `${this.#opts.holderPrefix}:${this.#seq++}`;
      if (this.#excess === 0 && (await this.#opts.slots.tryAcquire(holder))) {
        this.#held.add(holder);
        const next = this.#waiters.shift();
        if (next && !this.#closed.signal.aborted) next.give(holder);
        else await this.#letGo(holder);
        pause = this.#poll.first;
        continue;
      }
      for (const waiter of this.#waiters) waiter.limited = true;
      await this.#sleep(pause, AbortSignal.any([this.#wake.signal, this.#closed.signal]));
      pause = Math.min(this.#poll.max, pause * 2);
    }
  }
}
