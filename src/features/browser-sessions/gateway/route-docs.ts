// The contract of the browser session routes (routes.ts, under /v2/browser and
// /v2/interact) and of the live view page (live-view/live-view-routes.ts).
import { z } from 'zod';
import type { RouteDoc } from '../../../platform/http/route-doc.ts';
import { executeRequestSchema } from '../protocol/execute-request.ts';
import { executeResponseSchema } from '../protocol/execute-response.ts';
import { createSessionSchema, listSessionsQuerySchema, profileNameSchema } from './session-request.ts';
import { sessionUrlsSchema, sessionViewSchema } from './session-store.ts';
import { interactRequestSchema } from './interact/interact-request.ts';
import { interactEndedSchema, interactResponseSchema } from './interact/interact-response.ts';

const ok = z.object({ success: z.literal(true) });
const idParams = z.object({ id: z.string().describe('The session id.') });

export const sessionCreatedSchema = ok.extend(sessionUrlsSchema.shape).extend({ id: z.string(), expiresAt: z.string() });
export const sessionListSchema = ok.extend({ sessions: z.array(sessionViewSchema) });
export const sessionEndedSchema = ok.extend({ sessionDurationMs: z.number().int(), creditsBilled: z.number() });

function sessionRouteDocs(prefix: '/browser' | '/interact', name: 'Browser' | 'Interact'): RouteDoc[] {
  const tag = 'browser sessions';
  const base = `/v2${prefix}`;
  return [
    {
      method: 'post',
      path: base,
      operationId: `create${name}Session`,
      summary: 'Start a remote browser session',
      tag,
      body: createSessionSchema,
      responses: { 200: sessionCreatedSchema },
      errors: [402, 409, 429, 503],
    },
    {
      method: 'get',
      path: base,
      operationId: `list${name}Sessions`,
      summary: 'The team’s sessions, newest first',
      tag,
      query: listSessionsQuerySchema,
      responses: { 200: sessionListSchema },
      errors: [400],
    },
    {
      method: 'get',
      path: `${base}/:id`,
      operationId: `get${name}Session`,
      summary: 'One session',
      tag,
      params: idParams,
      responses: { 200: ok.extend(sessionViewSchema.shape) },
      errors: [404],
    },
    {
      method: 'delete',
      path: `${base}/:id`,
      operationId: `delete${name}Session`,
      summary: 'End a session and bill it',
      tag,
      params: idParams,
      responses: { 200: sessionEndedSchema },
      errors: [404],
    },
    {
      method: 'post',
      path: `${base}/:id/execute`,
      operationId: `execute${name}Code`,
      summary: 'Run code against the session’s browser',
      tag,
      params: idParams,
      body: executeRequestSchema,
      responses: { 200: executeResponseSchema },
      errors: [404, 410],
    },
    {
      method: 'delete',
      path: `${base}/profiles/:name`,
      operationId: `delete${name}Profile`,
      summary: 'Delete a stored browser profile',
      tag,
      params: profileNameSchema,
      responses: { 200: ok },
      errors: [400, 404, 409],
    },
  ];
}

const scrapeIdParams = z.object({ id: z.string().describe('The scrape id (metadata.scrapeId of a POST /v2/scrape answer).') });

const scrapeInteractDocs: RouteDoc[] = [
  {
    method: 'post',
    path: '/v2/scrape/:id/interact',
    operationId: 'interactWithScrape',
    summary: 'Run code or a prompt against the page a scrape saw',
    description:
      'The first call opens the scrape’s page again in a browser session of the team (its URL, headers, waitFor and page-changing actions); later calls run in the same tab until DELETE, the ttl (INTERACT_TTL_SECONDS) or the idle timer (INTERACT_ACTIVITY_TTL_SECONDS) ends it. Billed as a browser session.',
    tag: 'browser sessions',
    params: scrapeIdParams,
    body: interactRequestSchema,
    responses: { 200: interactResponseSchema },
    errors: [402, 404, 409, 410, 503],
  },
  {
    method: 'delete',
    path: '/v2/scrape/:id/interact',
    operationId: 'stopScrapeInteraction',
    summary: 'End the browser of a scrape’s interaction and bill it',
    tag: 'browser sessions',
    params: scrapeIdParams,
    responses: { 200: interactEndedSchema },
    errors: [404],
  },
];

export const browserSessionRouteDocs: RouteDoc[] = [
  ...sessionRouteDocs('/browser', 'Browser'),
  ...sessionRouteDocs('/interact', 'Interact'),
  ...scrapeInteractDocs,
  {
    method: 'get',
    path: '/v2/browser/:id/live',
    operationId: 'getLiveView',
    summary: 'The live view page of a session',
    description:
      'Authenticated by the token in the liveViewUrl or interactiveLiveViewUrl, not by an API key. The same URL upgraded to a WebSocket is the stream.',
    tag: 'browser sessions',
    auth: 'public',
    params: idParams,
    query: z.object({ token: z.string().describe('The view or interactive token of the session.') }),
    responses: { 200: { html: 'The viewer' }, 401: { html: 'The token does not open this session’s live view' }, 410: { html: 'The session has ended' } },
  },
];
