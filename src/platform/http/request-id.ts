// Every request has an id: the caller's X-Request-Id when it is a sane one (so a
// proxy's or client's id follows the request into our logs), a fresh one otherwise.
// It is answered in X-Request-Id and in every error body, and bound to every log
// line the request causes, including the start of the workflows it starts.
import type { RequestHandler } from 'express';
import { v4 as uuidv4 } from 'uuid';
import { withLogFields } from '../log.ts';

/**
 * A kept incoming id: 1 to 128 characters of letters, digits and `.`, `_`, `:`, `-`. Anything else
 * (empty, longer, spaces, quotes, control characters) could forge or break a log line or a memo, and
 * is replaced by a fresh uuid.
 */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdFor(incoming: string | undefined): string {
  return incoming !== undefined && REQUEST_ID_PATTERN.test(incoming) ? incoming : uuidv4();
}

/** Names the request's id (res.locals.requestId, the X-Request-Id answer header) and binds it to its log lines. */
export function assignRequestId(): RequestHandler {
  return (req, res, next) => {
    const requestId = requestIdFor(req.get('x-request-id'));
    res.locals.requestId = requestId;
    res.setHeader('X-Request-Id', requestId);
    withLogFields({ requestId }, next);
  };
}

/**
 * Binds the id again: a body parser calls on from its stream's events, which run outside the
 * async context the request began in. Goes after every middleware that reads the body.
 */
export function rebindRequestId(): RequestHandler {
  return (_req, res, next) => withLogFields({ requestId: res.locals.requestId }, next);
}
