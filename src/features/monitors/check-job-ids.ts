// The ids of what a check makes (its target jobs, its search calls), derived from the
// check and the target so that a retried activity makes the same ones again.
import { v5 as uuidv5 } from 'uuid';

/** Namespace of the ids of a check's jobs (uuid v5 of `<checkId>/<targetId>`). */
const CHECK_JOB_NAMESPACE = '6f0e4c52-8a3b-4d1e-9c57-2b8f3e1a7d40';

export function checkJobId(checkId: string, targetId: string): string {
  return uuidv5(`${checkId}/${targetId}`, CHECK_JOB_NAMESPACE);
}

/** The call id of a search target's query (its index): a retry repeats the searches, each charged once. */
export function checkSearchCallId(checkId: string, targetId: string, query: number): string {
  return uuidv5(`${checkId}/search/${targetId}/${query}`, CHECK_JOB_NAMESPACE);
}
