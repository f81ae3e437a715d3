// The rules of a POST /v2/scrape's resume, without the database: which request is
// "the same" (its key), whether a scrape found under that key may answer it, and
// what a 408 whose scrape goes on tells the SDKs (details.state "processing_continues"
// and Retry-After, which both official SDKs wait for and then send the identical
// request again).
import { createHash } from 'node:crypto';
import { writeCanonicalJson } from '../platform/canonical-json.ts';

/** Changes when the key's derivation does, so keys made by an older one never match. */
const KEY_VERSION = 'scrape-resume/1';

/**
 * The key of a scrape request: a hash of its body as sent, object keys in any order. The SDKs send
 * the identical body again (no header tells a resume apart), so the body is what makes two
 * requests the same; the team is the index's other column.
 */
export function scrapeResumeKey(body: unknown): string {
  const hash = createHash('sha256').update(`${KEY_VERSION}\n`);
  writeCanonicalJson(body ?? null, (text) => hash.update(text));
  return hash.digest('hex');
}

/** What is known of the scrape that holds a request's key. */
export interface KeyHolder {
  status: string;
  /** Its page is stored (as a document or as its failure): its answer is known, though its row may still say scraping. */
  pageStored: boolean;
  resumableUntil: Date | null;
}

/** The scrape's answer is known: it is read, not waited for. */
export function holderSettled(holder: KeyHolder): boolean {
  return holder.status !== 'scraping' || holder.pageStored;
}

/**
 * `attach`: the request is answered by this scrape (no fetch, no charge); `replace`: a new scrape
 * takes the key. A scrape still at work answers every identical request (two at once share one
 * fetch); one whose answer is known only within the window that its latest 408 opened: an identical
 * request after a normal answer is a new scrape, as `maxAge: 0` promises.
 */
export function resumeChoice(holder: KeyHolder, now: Date): 'attach' | 'replace' {
  if (!holderSettled(holder)) return 'attach';
  return holder.resumableUntil !== null && holder.resumableUntil > now ? 'attach' : 'replace';
}

/** What the SDKs read from a 408 to resume: `details.state`, `details.retryAfterSeconds` (and the Retry-After header). */
export interface ResumableTimeoutDetails {
  id: string;
  state: 'processing_continues';
  retryAfterSeconds: number;
}

export function resumableTimeoutDetails(id: string, retryAfterSeconds: number): ResumableTimeoutDetails {
  return { id, state: 'processing_continues', retryAfterSeconds };
}

/**
 * The page's load budget of a POST /v2/scrape: its `timeout` bounds the request's wait, and the
 * page may go on past it, up to the budget (or the timeout, when longer).
 */
export function scrapePageBudgetMs(timeoutMs: number, budgetMs: number): number {
  return Math.max(timeoutMs, budgetMs);
}
