// The error envelope of the public API (docs/api/conventions.md#errors):
// { success: false, error, code, details?, requestId }. Every answer here goes through sendError,
// whose body type requires a code and which adds the request's id. Nothing internal leaks from a 500: the client gets
// an id to quote, the log gets the stack.
import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import { v4 as uuidv4 } from 'uuid';
import { z, ZodError } from 'zod';
import { HttpError } from './http-error.ts';
import { DomainError, type DomainErrorKind } from '../domain-error.ts';
import { formatZodError } from './validation-error.ts';
import type { Logger } from '../log.ts';
import { dependencyFailure, type DependencyFailure } from '../dependency-failure.ts';

/** The body of every error answer; `code` is required so no answer can go without one. The OpenAPI document describes each route's errors with it. */
export const errorEnvelopeSchema = z.object({
  success: z.literal(false),
  error: z.string().describe('What went wrong, for a person to read.'),
  code: z.string().describe('A stable identifier of the error (BAD_REQUEST, UNAUTHORIZED, NOT_FOUND, ...).'),
  details: z.unknown().optional().describe('Structured details: the validation issues of a rejected body; the refused service of a 501.'),
  type: z
    .string()
    .optional()
    .describe('On a 501 CLOUD_SERVICE_NOT_OFFERED: the code again, as the RFC 9457 member the JS SDK’s research methods read as the error’s code.'),
  detail: z
    .string()
    .optional()
    .describe('On a 501 CLOUD_SERVICE_NOT_OFFERED: the message again, as the RFC 9457 member the JS SDK’s research methods read as the error’s message.'),
  requestId: z
    .string()
    .optional()
    .describe('The id of the request, as in its X-Request-Id answer header: quote it when reporting a problem. Every HTTP error answer carries it.'),
});

export type ErrorBody = z.infer<typeof errorEnvelopeSchema>;

export const notFound = (message = 'Job not found') => new HttpError(404, message, 'NOT_FOUND');

/**
 * Retry-After of a 429 that is no rate limit (a team at its running crawls or sessions): nothing
 * says when a slot frees, so a pace that notices a finished job soon without hammering the API.
 */
export const LIMIT_REACHED_RETRY_AFTER_SECONDS = 30;

/**
 * Retry-After of a 503 that sets none of its own: PostgreSQL or Temporal away. `npm start` brings
 * either back within seconds; a failover takes about as long.
 */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

function sendError(res: Response, status: number, body: Omit<ErrorBody, 'requestId'>): void {
  // Every 429 and 503 says when to come back; the rate limiter and the upload budget set their own first.
  if (status === 429 && !res.hasHeader('Retry-After')) res.setHeader('Retry-After', String(LIMIT_REACHED_RETRY_AFTER_SECONDS));
  if (status === 503 && !res.hasHeader('Retry-After')) res.setHeader('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
  res.status(status).json({ ...body, requestId: res.locals.requestId as string } satisfies ErrorBody);
}

/** The 503 of a request that needed PostgreSQL or Temporal while it was away. */
export function sendDependencyFailure(res: Response, failure: DependencyFailure): void {
  sendError(res, 503, {
    success: false,
    code: 'SERVICE_UNAVAILABLE',
    error:
      `${failure.dependency} is unavailable (${failure.reason}): the request could not be served. Retry after ${UNAVAILABLE_RETRY_AFTER_SECONDS} s; ` +
      'a job start sent again with the same x-idempotency-key is not started twice.',
    details: { dependency: failure.dependency },
  });
}

export function notFoundRoute(): RequestHandler {
  return (req, _res, next) => next(new HttpError(404, `Not found: ${req.method} ${req.path}`, 'NOT_FOUND'));
}

/** The one place a domain error becomes an HTTP status. */
const DOMAIN_STATUS: Record<DomainErrorKind, { status: number; code: string }> = {
  invalid: { status: 400, code: 'BAD_REQUEST' },
  forbidden: { status: 403, code: 'FORBIDDEN' },
  'payment-required': { status: 402, code: 'PAYMENT_REQUIRED' },
  'not-found': { status: 404, code: 'NOT_FOUND' },
  conflict: { status: 409, code: 'CONFLICT' },
  gone: { status: 410, code: 'GONE' },
  'limit-reached': { status: 429, code: 'LIMIT_REACHED' },
  unavailable: { status: 503, code: 'SERVICE_UNAVAILABLE' },
  timeout: { status: 408, code: 'TIMEOUT' },
  // 500 as upstream answers a failed scrape; not 502, which the JS SDK retries.
  'job-failed': { status: 500, code: 'JOB_FAILED' },
  // 501: what upstream's self-hosted server answers for its research routes; neither SDK retries it (they retry 502 only).
  'not-offered': { status: 501, code: 'CLOUD_SERVICE_NOT_OFFERED' },
};

/** What body-parser and the router throw (http-errors): a client error carries its own status. */
interface BodyParserError extends Error {
  type?: string;
  status?: number;
  statusCode?: number;
}

const CLIENT_ERROR_CODES: Record<number, string> = { 400: 'BAD_REQUEST', 413: 'PAYLOAD_TOO_LARGE', 415: 'UNSUPPORTED_MEDIA_TYPE' };

export function errorHandler(log: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    if (res.headersSent) {
      // The request was answered at its deadline and its handler failed since: what it held is let go.
      (res.locals.onLateError as (() => void) | undefined)?.();
      return;
    }
    if (err instanceof ZodError) {
      const { error, details } = formatZodError(err);
      sendError(res, 400, { success: false, code: 'BAD_REQUEST', error, details });
      return;
    }
    if (err instanceof DomainError) {
      const { status, code } = DOMAIN_STATUS[err.kind];
      const body = { success: false as const, error: err.message, code: err.code ?? code, ...(err.details !== undefined && { details: err.details }) };
      // The JS SDK's research methods read only problem-details members (detail, title, type) of an error answer.
      sendError(res, status, err.kind === 'not-offered' ? { ...body, type: body.code, detail: body.error } : body);
      return;
    }
    if (err instanceof HttpError) {
      sendError(res, err.status, { success: false, error: err.message, code: err.code, ...(err.details !== undefined && { details: err.details }) });
      return;
    }
    const bodyError = err as BodyParserError;
    if (bodyError?.type === 'entity.parse.failed') {
      sendError(res, 400, { success: false, code: 'BAD_REQUEST_INVALID_JSON', error: 'Bad request, malformed JSON' });
      return;
    }
    if (bodyError?.type === 'entity.too.large') {
      sendError(res, 413, { success: false, code: 'PAYLOAD_TOO_LARGE', error: 'Request body is too large' });
      return;
    }
    if (bodyError?.type === 'encoding.unsupported' || bodyError?.type === 'charset.unsupported') {
      sendError(res, 415, { success: false, code: 'UNSUPPORTED_MEDIA_TYPE', error: bodyError.message });
      return;
    }
    // Any other request the body parser or router could not read (a truncated or badly compressed
    // body, an undecodable path parameter): the client's fault, so a 4xx, never a 500.
    const status = bodyError?.status ?? bodyError?.statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      sendError(res, status, { success: false, code: CLIENT_ERROR_CODES[status] ?? 'BAD_REQUEST', error: bodyError.message });
      return;
    }
    const failure = dependencyFailure(err);
    if (failure) {
      log.warn('dependency unavailable', { requestId: res.locals.requestId, method: req.method, path: req.path, ...failure });
      sendDependencyFailure(res, failure);
      return;
    }
    const errorId = uuidv4();
    log.error('unhandled error', { errorId, requestId: res.locals.requestId, method: req.method, path: req.path, err });
    sendError(res, 500, { success: false, code: 'UNKNOWN_ERROR', error: `An unexpected error occurred. Error ID: ${errorId}` });
  };
}
