// The contract of the extract routes (routes.ts).
import { z } from 'zod';
import type { RouteDoc } from '../../platform/http/route-doc.ts';
import { extractRequestSchema } from './extract-request.ts';
import { extractAnswerSchema, extractStartSchema } from './extract-answer.ts';

export const extractRouteDocs: RouteDoc[] = [
  {
    method: 'post',
    path: '/v2/extract',
    operationId: 'startExtract',
    summary: 'Extract one JSON object from pages (a `/*` URL is crawled) with a prompt and/or a schema',
    tag: 'extract',
    body: extractRequestSchema,
    responses: { 200: extractStartSchema },
    errors: [402, 403],
  },
  {
    method: 'get',
    path: '/v2/extract/:id',
    operationId: 'getExtractStatus',
    summary: 'Status of an extract and, once completed, its data, sources and cost',
    tag: 'extract',
    params: z.object({ id: z.string().describe('The extract id.') }),
    responses: { 200: extractAnswerSchema },
    errors: [404],
  },
];
