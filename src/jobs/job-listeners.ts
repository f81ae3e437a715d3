// The listeners a job feed (job-feed.ts) serves, by job, and which of them each event of the
// job's channel is told to.
import type { JobEvent } from './job-events.ts';

export interface JobListener {
  /** A page of the job was stored, with its document (successful pages only; failed ones are not documents). */
  page?(pageId: bigint, document: unknown): void;
  /** A successful page of the job was stored (committed): told at once, without reading it. */
  stored?(pageId: bigint): void;
  ended(): void;
  /** Events may have been missed: catch up from the tables. */
  gap(): void;
}

export class JobListeners {
  readonly #byJob = new Map<string, Set<JobListener>>();

  /** Listeners of every job together. */
  get size(): number {
    return [...this.#byJob.values()].reduce((n, s) => n + s.size, 0);
  }

  add(jobId: string, listener: JobListener): void {
    let set = this.#byJob.get(jobId);
    if (!set) this.#byJob.set(jobId, (set = new Set()));
    set.add(listener);
  }

  remove(jobId: string, listener: JobListener): void {
    const set = this.#byJob.get(jobId);
    if (!set) return;
    set.delete(listener);
    if (set.size === 0) this.#byJob.delete(jobId);
  }

  /**
   * Tells the event's job's listeners what it says. Returns the stored page whose document a
   * listener still wants (asked once the others were told: telling one may remove another).
   */
  tell(event: JobEvent): bigint | undefined {
    const set = this.#byJob.get(event.jobId);
    if (!set) return undefined;
    if ('ended' in event) {
      for (const l of set) l.ended();
      return undefined;
    }
    for (const l of set) l.stored?.(event.pageId);
    return this.wantsDocuments(event.jobId) ? event.pageId : undefined;
  }

  /** Whether a listener of the job wants stored pages' documents. */
  wantsDocuments(jobId: string): boolean {
    return [...(this.#byJob.get(jobId) ?? [])].some((l) => l.page);
  }

  /** Hands the job's listeners that want it a stored page's document. */
  page(jobId: string, pageId: bigint, document: unknown): void {
    for (const l of this.#byJob.get(jobId) ?? []) l.page?.(pageId, document);
  }

  /** Tells every listener that events may have been missed. */
  gap(): void {
    this.#byJob.forEach((set) => set.forEach((l) => l.gap()));
  }
}
