// The contract of the refused cloud-service routes (routes.ts): their requests, and
// the one answer a valid request gets, 501 CLOUD_SERVICE_NOT_OFFERED.
import { CLOUD_SERVICES, cloudServiceMessage } from '../../platform/cloud-services.ts';
import type { RouteDoc } from '../../platform/http/route-doc.ts';
import { REFUSED_ROUTES } from './routes.ts';

export const cloudServiceRouteDocs: RouteDoc[] = REFUSED_ROUTES.map((route) => ({
  method: route.method,
  path: `/v2${route.path}`,
  operationId: route.operationId,
  summary: `Refused: ${CLOUD_SERVICES[route.service].name.split(' (')[0]} is a Firecrawl cloud service`,
  description: `Called by ${route.sdk}. A valid request is answered 501 CLOUD_SERVICE_NOT_OFFERED: “${cloudServiceMessage(route.service)}”`,
  tag: 'cloud services',
  ...(route.params && { params: route.params }),
  ...(route.query && { query: route.query }),
  ...(route.body && { body: route.body }),
  responses: {},
  errors: [400, 501],
}));
