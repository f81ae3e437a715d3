// A batch's source of URLs over the crawl's frontier, in the spirit of Crawlee's
// request manager: it claims (a retry first takes back what its earlier attempt
// held), hands back what the batch did not start, and tells "nothing now" (other
// batches, or this one, still hold pages that may add links) from "nothing more".
// It never loads a page and never waits for a team slot (see batch-leases.ts).
import type { Db } from '../../platform/db/prisma.ts';
import { claimMore, frontierCounts, heldClaims, releaseStrayClaims, returnClaim, type FrontierRow } from '../frontier/frontier.ts';
import { FrontierState } from '../frontier/frontier-state.ts';
import type { BatchTally } from './batch-tally.ts';

export interface ClaimedTarget {
  url: string;
  key: string;
  depth: number;
}

/** The crawl's running batches as its workflow last told this batch (each answer is read once). */
export interface RunningBatches {
  keys: string[];
  /** Date.now() when the workflow was asked. */
  askedAt: number;
}

export interface FrontierSourceOptions {
  db: Db;
  crawlId: string;
  /** Rows are claimed under this key, so a retry of the batch finds them again. */
  batchKey: string;
  teamId: string;
  /** Most URLs the batch claims in all. */
  size: number;
  tally: BatchTally;
  /** True once the batch gives its browser up: it claims nothing more. */
  stopping(): boolean;
  /** No URL is claimed after the batch has run this long. */
  claimWindowMs: number;
  /** How long the batch waits, with nothing to do, for other batches to find links. */
  idleMs: number;
  /** Its workflow's last answer, when the batch asks it (a crawl's batches do): without one, claims no batch will settle wait for the crawl's finish. */
  runningBatches?(): RunningBatches | undefined;
  /** Told how many such claims it put back in the queue. */
  onStrays?(released: number): void;
}

export class FrontierSource {
  readonly #o: FrontierSourceOptions;
  readonly #started = Date.now();
  #earlierTaken = false;
  #idleSince: number | undefined;
  readonly #depths = new Map<string, number>();
  #strayCheckedWith: RunningBatches | undefined;
  /** The team's balance could not pay for another page. */
  outOfCredits = false;
  /** Nothing was left to claim (rather than the batch reaching its size). */
  starved = false;

  constructor(opts: FrontierSourceOptions) {
    this.#o = opts;
  }

  /** The batch had nothing to do at its last ask. */
  get idle(): boolean {
    return this.#idleSince !== undefined;
  }

  /** An earlier attempt's rows were taken back: only then may the batch step aside for another crawl. */
  get earlierTaken(): boolean {
    return this.#earlierTaken;
  }

  /**
   * Up to `room` URLs to load: an empty list when there are none now, null when no more will come
   * (the batch's size or claim window is reached, it is stepping aside, or the team is out of credits).
   */
  async claim(room: number): Promise<ClaimedTarget[] | null> {
    for (;;) {
      const got = await this.#claimRows(room);
      if (got === null) return null;
      if (got.rows.length === 0) return [];
      const open = got.earlier ? await this.#unstored(got.rows) : got.rows;
      // Marked once settled: rows whose reading or settling the database failed are taken back by the next claim.
      if (got.earlier) this.#earlierTaken = true;
      this.#o.tally.claimed += got.rows.length;
      this.#idleSince = undefined;
      this.#o.tally.todo += open.length;
      for (const r of open) this.#depths.set(r.urlKey, r.depth);
      if (open.length > 0) return open.map((r) => ({ url: r.url, key: r.urlKey, depth: r.depth }));
    }
  }

  /**
   * Asked after a claim found nothing: true when nothing more will come, because the frontier holds
   * no queued or claimed URL, or it has held only other batches' claims for longer than `idleMs`.
   * False at once when it put claims no running batch will settle back in the queue.
   */
  async exhausted(): Promise<boolean> {
    const counts = await frontierCounts(this.#o.db, this.#o.crawlId);
    if (counts.queued > 0 || this.#o.tally.inFlight > 0) return false;
    if (counts.claimed > 0 && (await this.#releaseStrays()) > 0) return false;
    if (counts.claimed === 0) this.starved = true;
    else if ((this.#idleSince ??= Date.now()) + this.#o.idleMs < Date.now()) this.starved = true;
    return this.starved;
  }

  /** The depth a claimed URL was found at. */
  depthOf(key: string): number {
    return this.#depths.get(key) ?? 0;
  }

  /** Hands a URL the batch did not start back to the queue. */
  async giveBack(target: { key: string }): Promise<void> {
    await returnClaim(this.#o.db, this.#o.crawlId, this.#o.batchKey, target.key);
    this.#depths.delete(target.key);
    this.#o.tally.todo--;
  }

  /**
   * Only claims remain: those no running batch will settle go back to the queue, once per answer of
   * the workflow, so that the batch claims them instead of waiting `idleMs` for their holders. An
   * answer that does not count this batch as running (this attempt outlived its batch) releases nothing.
   */
  async #releaseStrays(): Promise<number> {
    const running = this.#o.runningBatches?.();
    if (running === undefined || running === this.#strayCheckedWith || !running.keys.includes(this.#o.batchKey)) return 0;
    this.#strayCheckedWith = running;
    const released = await releaseStrayClaims(this.#o.db, this.#o.crawlId, {
      batchKey: this.#o.batchKey,
      inHand: [...this.#depths.keys()],
      running: running.keys,
      askedMsAgo: Date.now() - running.askedAt,
    });
    if (released > 0) this.#o.onStrays?.(released);
    return released;
  }

  async #claimRows(room: number): Promise<{ rows: FrontierRow[]; earlier?: true } | null> {
    const { db, crawlId, batchKey, teamId, tally } = this.#o;
    if (!this.#earlierTaken) {
      const held = await heldClaims(db, crawlId, batchKey);
      if (held.length > 0) return { rows: held, earlier: true };
      this.#earlierTaken = true;
    }
    if (this.#o.stopping()) return null;
    const want = Math.min(room, this.#o.size - tally.claimed);
    if (want <= 0 || Date.now() - this.#started > this.#o.claimWindowMs) return null;
    // Pages still in flight will be charged too; until they are, the balance may be spoken for.
    const rows = await claimMore(db, crawlId, batchKey, want, { teamId, inFlight: tally.inFlight });
    if (rows.length > 0) return { rows };
    const { creditBalance } = await db.team.findUniqueOrThrow({ where: { id: teamId }, select: { creditBalance: true } });
    if (creditBalance > 0) return { rows };
    this.outOfCredits = true;
    return null;
  }

  /**
   * An earlier attempt's rows, less those it stored. Only such rows can have been stored: storing a
   * page ends its queued or claimed state in the same transaction.
   */
  async #unstored(rows: FrontierRow[]): Promise<FrontierRow[]> {
    const { db, crawlId } = this.#o;
    const stored = new Set(
      (await db.jobPage.findMany({ where: { jobId: crawlId, urlKey: { in: rows.map((r) => r.urlKey) } }, select: { urlKey: true } })).map((p) => p.urlKey),
    );
    for (const r of rows.filter((r) => stored.has(r.urlKey) && r.state === FrontierState.claimed)) {
      await db.jobUrl.update({ where: { id: r.id }, data: { state: FrontierState.done } });
    }
    return rows.filter((r) => !stored.has(r.urlKey) && r.state !== FrontierState.done && r.state !== FrontierState.failed);
  }
}
