// The routes the SDKs call for Firecrawl cloud services (docs/api/cloud-services.md),
// in one table: each validates its request like any route (400 naming the field)
// and then refuses with its service's 501 (platform/cloud-services.ts). Any other
// path under the research prefixes is refused too, as upstream's self-hosted server
// does when its research service is not configured.
import { Router, type RequestHandler } from 'express';
import type { z } from 'zod';
import { cloudServiceNotOffered, type CloudServiceId } from '../../platform/cloud-services.ts';
import type { RouteMethod } from '../../platform/http/route-doc.ts';
import {
  developerSearchBody,
  feedbackBody,
  githubSearchQuery,
  govSearchBody,
  paperParams,
  paperQuery,
  searchFeedbackBody,
  searchJobParams,
  searchPapersQuery,
  similarPapersQuery,
} from './requests.ts';

export interface RefusedRoute {
  method: Extract<RouteMethod, 'get' | 'post'>;
  /** Under /v2, as Express registers it. */
  path: string;
  service: CloudServiceId;
  operationId: string;
  /** The SDK methods that call it. */
  sdk: string;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
}

export const REFUSED_ROUTES: RefusedRoute[] = [
  {
    method: 'get',
    path: '/search/research/papers',
    service: 'research-index',
    operationId: 'searchPapers',
    sdk: 'JS research.searchPapers(), Python search_papers()',
    query: searchPapersQuery,
  },
  {
    method: 'get',
    path: '/search/research/papers/:id/similar',
    service: 'research-index',
    operationId: 'similarPapers',
    sdk: 'JS research.similarPapers(), Python related_papers()',
    params: paperParams,
    query: similarPapersQuery,
  },
  {
    method: 'get',
    path: '/search/research/papers/:id',
    service: 'research-index',
    operationId: 'getPaper',
    sdk: 'JS research.getPaper(), Python inspect_paper() and read_paper()',
    params: paperParams,
    query: paperQuery,
  },
  {
    method: 'get',
    path: '/search/research/github',
    service: 'research-index',
    operationId: 'searchResearchGithub',
    sdk: 'JS research.searchGithub(), Python search_github()',
    query: githubSearchQuery,
  },
  {
    method: 'post',
    path: '/search/developer',
    service: 'developer-index',
    operationId: 'developerSearch',
    sdk: 'JS developerSearch(), Python developer_search()',
    body: developerSearchBody,
  },
  { method: 'post', path: '/search/gov', service: 'government-index', operationId: 'govSearch', sdk: 'Python gov_search()', body: govSearchBody },
  {
    method: 'post',
    path: '/search/:jobId/feedback',
    service: 'feedback',
    operationId: 'searchFeedback',
    sdk: 'JS searchFeedback()',
    params: searchJobParams,
    body: searchFeedbackBody,
  },
  { method: 'post', path: '/feedback', service: 'feedback', operationId: 'feedback', sdk: 'JS feedback()', body: feedbackBody },
];

/** Prefixes upstream serves its research index under (the second is its older name). */
const RESEARCH_PREFIXES = ['/search/research', '/research'];

function refuse(route: RefusedRoute): RequestHandler {
  return (req, _res, next) => {
    route.params?.parse(req.params);
    route.query?.parse(req.query);
    route.body?.parse(req.body ?? {});
    next(cloudServiceNotOffered(route.service));
  };
}

export function cloudServiceRoutes(): Router {
  const router = Router();
  for (const route of REFUSED_ROUTES) router[route.method](route.path, refuse(route));
  for (const prefix of RESEARCH_PREFIXES) router.use(prefix, (_req, _res, next) => next(cloudServiceNotOffered('research-index')));
  return router;
}
