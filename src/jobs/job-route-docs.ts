// The contract of the routes jobStatusRoutes (job-routes.ts) registers for a job kind.
import { z } from 'zod';
import type { RouteDoc } from '../platform/http/route-doc.ts';
import { jobCancelledSchema, jobErrorsSchema, jobStatusSchema, webhookDeliveriesSchema } from './job-responses.ts';
import { paginationSchema } from './job-routes.ts';

const idParams = z.object({ id: z.uuid().describe('The job id.') });

/** `base` as jobStatusRoutes takes it (`/crawl`); `noun` names the job in summaries, `prefix` its operation ids. */
export function jobStatusRouteDocs(base: string, tag: string, noun: string, prefix: string): RouteDoc[] {
  const path = `/v2${base}/:id`;
  return [
    {
      method: 'get',
      path,
      operationId: `get${prefix}Status`,
      summary: `Status of a ${noun} and a page of its documents`,
      description: 'Documents come at most 10 MB at a time; follow `next` for the rest.',
      tag,
      params: idParams,
      query: paginationSchema,
      responses: { 200: jobStatusSchema },
      errors: [400, 404],
    },
    {
      method: 'delete',
      path,
      operationId: `cancel${prefix}`,
      summary: `Cancel a ${noun}`,
      tag,
      params: idParams,
      responses: { 200: jobCancelledSchema },
      errors: [400, 404, 409, 503],
    },
    {
      method: 'get',
      path: `${path}/errors`,
      operationId: `get${prefix}Errors`,
      summary: `Pages of a ${noun} that failed, and URLs robots.txt blocked`,
      tag,
      params: idParams,
      responses: { 200: jobErrorsSchema },
      errors: [400, 404],
    },
    {
      method: 'get',
      path: `${path}/webhooks`,
      operationId: `get${prefix}WebhookDeliveries`,
      summary: `Webhook deliveries of a ${noun} and their attempts`,
      tag,
      params: idParams,
      responses: { 200: webhookDeliveriesSchema },
      errors: [400, 404],
    },
  ];
}
