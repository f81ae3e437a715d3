// A signal that aborts at a deadline, or with its parent, and whose timer is
// cleared once the work is done. AbortSignal.timeout cannot be cleared: its timer,
// and whatever listens to its signal, live for the whole timeout after the work
// ends; at a hundred fetches a second with a 60 s timeout that is thousands of
// finished requests held in memory.

export interface Deadline {
  signal: AbortSignal;
  /** The deadline passed (not the parent). */
  readonly expired: boolean;
  clear(): void;
}

export function deadline(ms: number, parent?: AbortSignal): Deadline {
  const own = new AbortController();
  const timer = setTimeout(() => own.abort(new DOMException(`Timed out after ${ms} ms`, 'TimeoutError')), ms);
  return {
    signal: parent ? AbortSignal.any([parent, own.signal]) : own.signal,
    get expired() {
      return own.signal.aborted;
    },
    clear: () => clearTimeout(timer),
  };
}
