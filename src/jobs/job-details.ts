// The one line the Temporal UI shows as a running job's current details
// (setCurrentDetails), built from its progress. Workflow code imports this
// file, so it is pure and imports types only.
import { durationText } from '../platform/duration-text.ts';
import type { JobProgress } from './definitions.ts';

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function counts(p: JobProgress): string {
  return `${p.completed} stored, ${p.queued} queued, ${p.failed} failed`;
}

function credits(p: JobProgress): string {
  return `${plural(p.creditsUsed, 'credit')} used`;
}

function batches(p: JobProgress): string {
  return p.batchesInFlight === 0 ? 'no batch running' : `${plural(p.batchesInFlight, 'batch', 'batches')} running`;
}

/** `now` (epoch ms): a host's pause is told while it lasts. */
function throttledHost(p: JobProgress, now: number): string | undefined {
  const t = p.throttled;
  if (!t || t.until <= now) return undefined;
  return `${t.host} throttled: its pages wait ${durationText(t.until - now)} for it (${plural(t.pauses, 'pause')} so far)`;
}

/** `now`: in workflow code Date.now() is the workflow's own (deterministic) clock. */
export function jobDetails(p: JobProgress, now = Date.now()): string {
  const parts: string[] = [];
  switch (p.phase) {
    case 'planning':
      return 'planning: queueing the first URLs';
    case 'scraping':
      parts.push(`scraping: ${counts(p)}`, batches(p), credits(p));
      break;
    case 'paused':
      parts.push(`paused since ${new Date(p.paused!.sinceMs).toISOString()} by ${p.paused!.by}`, counts(p));
      parts.push(p.batchesInFlight > 0 ? `${plural(p.batchesInFlight, 'batch', 'batches')} finishing the pages in flight` : 'holding nothing', credits(p));
      break;
    case 'delay':
      parts.push(`waiting ${durationText(p.delayMs ?? 0)} (delay between pages)`, counts(p), credits(p));
      break;
    case 'finishing':
      parts.push(`finishing: ${counts(p)}`, credits(p));
      break;
    case 'cancelling':
    case 'failing':
      parts.push(p.batchesInFlight > 0 ? `${p.phase}: waiting for ${plural(p.batchesInFlight, 'batch', 'batches')} to stop` : `${p.phase}: recording the end`);
      parts.push(counts(p));
      break;
    case 'ended':
      parts.push(`${p.status}: ${p.completed} stored, ${p.failed} failed`, credits(p));
      break;
  }
  if (p.outOfCredits && p.phase !== 'ended') parts.push('out of credits: no new batches');
  const throttled = p.phase === 'ended' ? undefined : throttledHost(p, now);
  if (throttled) parts.push(throttled);
  return parts.join(' · ');
}
