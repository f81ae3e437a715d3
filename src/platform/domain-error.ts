// What domain code throws when a request cannot be served. It names what went
// wrong, never an HTTP status: only the HTTP layer (platform/http/errors.ts) maps a
// kind to a status, so the same code serves routes, activities and the CLI.

export type DomainErrorKind =
  /** The request is malformed or asks for something impossible. */
  | 'invalid'
  /** The team may not do this (a flag is off). */
  | 'forbidden'
  /** The team's balance cannot pay for it. */
  | 'payment-required'
  /** The thing does not exist (or belongs to another team). */
  | 'not-found'
  /** The thing is in a state that does not allow it. */
  | 'conflict'
  /** The thing existed and has ended for good (a destroyed browser session). */
  | 'gone'
  /** The team is at one of its limits (e.g. crawls running at once); it may try again later. */
  | 'limit-reached'
  /** A service this depends on cannot be reached. */
  | 'unavailable'
  /** The answer was not ready within the time the request allowed (the job itself goes on). */
  | 'timeout'
  /** The job ran and failed for a reason outside the request (the target site failed). */
  | 'job-failed'
  /** The request asks for a Firecrawl cloud service this self-hosted service does not offer (cloud-services.ts). */
  | 'not-offered';

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    /** The machine-readable code of the API envelope, when it is more specific than the kind's. */
    readonly code?: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}
