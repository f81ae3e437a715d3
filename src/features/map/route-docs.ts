// The contract of POST /v2/map (routes.ts).
import { z } from 'zod';
import type { RouteDoc } from '../../platform/http/route-doc.ts';
import { mapRequestSchema } from './map-request.ts';
import { mapLinkSchema } from './rank-links.ts';

export const mapAnswerSchema = z.object({
  success: z.literal(true),
  id: z.string(),
  links: z.array(mapLinkSchema),
  warning: z.string().optional(),
});

export const mapRouteDocs: RouteDoc[] = [
  {
    method: 'post',
    path: '/v2/map',
    operationId: 'map',
    summary: 'List a site’s URLs from its sitemaps, its start page and the local index',
    tag: 'map',
    body: mapRequestSchema,
    responses: { 200: mapAnswerSchema },
    errors: [402, 403, 408, 503],
  },
];
