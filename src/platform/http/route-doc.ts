// What a route declares about itself for the API contract (openapi-document.ts):
// its zod schemas for parameters, body and answers, and the error statuses it
// can answer. Declared by the feature that registers the route, next to it, and
// handed to the platform through Feature.routeDocs, so the platform never imports
// a feature; test/unit/api/openapi-coverage.test.ts fails on a registered route
// without one.
import type { z } from 'zod';

export type RouteMethod = 'get' | 'post' | 'patch' | 'delete';

/** A success answer: a JSON body described by its schema, or an HTML page. */
export type RouteAnswer = z.ZodType | { html: string };

export interface RouteDoc {
  method: RouteMethod;
  /** The full path as Express registers it, parameters as `:name` (`/v2/crawl/:id`). */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  /**
   * `apiKey` (the default): behind the Bearer key check and the key's rate limit, so 401 and 429
   * are among its answers. `public`: no key; the route authenticates by a rule of its own, if any.
   */
  auth?: 'apiKey' | 'public';
  /** Path parameters; a `:name` of the path without an entry here is documented as a string. */
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** How the body is sent: JSON (the default), or multipart/form-data parts described by `body` (an upload). */
  bodyMediaType?: 'application/json' | 'multipart/form-data';
  /** Answers by status other than the error envelope: the success ones, and pages a public route answers (an HTML 401). */
  responses: Record<number, RouteAnswer>;
  /** Statuses answered in the error envelope besides those every route of its kind can answer (see openapi-document.ts). */
  errors?: number[];
}
