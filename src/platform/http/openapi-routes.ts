// The API contract, public: GET /v2/openapi.json, and /docs, which renders it
// with Swagger UI served from node_modules (swagger-ui-dist), nothing fetched
// from elsewhere. Mounted before the /v2 key check: no key, no key rate limit.
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import express, { Router } from 'express';
import { z } from 'zod';
import type { OpenApiDocument } from './openapi-document.ts';
import type { RouteDoc } from './route-doc.ts';

export const OPENAPI_PATH = '/v2/openapi.json';
const ASSETS = '/docs/assets';
const swaggerUiDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

// Only our own scripts run; Swagger UI sets inline styles and draws data: images.
const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const docsPage = (title: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${title}</title>
<link rel="stylesheet" href="${ASSETS}/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${ASSETS}/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;

// validatorUrl null: Swagger UI would otherwise send the document to validator.swagger.io for a badge.
const initScript = `window.ui = SwaggerUIBundle({ url: '${OPENAPI_PATH}', dom_id: '#swagger-ui', deepLinking: true, validatorUrl: null });\n`;

export const openApiRouteDocs: RouteDoc[] = [
  {
    method: 'get',
    path: OPENAPI_PATH,
    operationId: 'getOpenApiDocument',
    summary: 'This API contract (OpenAPI 3.1)',
    tag: 'meta',
    auth: 'public',
    responses: { 200: z.record(z.string(), z.unknown()).describe('The OpenAPI 3.1 document') },
  },
  {
    method: 'get',
    path: '/docs',
    operationId: 'getApiDocsPage',
    summary: 'This API contract rendered as a page (Swagger UI)',
    tag: 'meta',
    auth: 'public',
    responses: { 200: { html: 'The documentation page' } },
  },
];

export function openApiRoutes(document: OpenApiDocument): Router {
  const router = Router();
  const body = JSON.stringify(document);
  router.get(OPENAPI_PATH, (_req, res) => {
    res.type('json').send(body);
  });
  router.get('/docs', (_req, res) => {
    res.setHeader('Content-Security-Policy', DOCS_CSP);
    res.type('html').send(docsPage(document.info.title));
  });
  // Assets of the page, not API operations: middleware, so they are no routes of the contract.
  router.use('/docs/init.js', (_req, res) => {
    res.type('js').send(initScript);
  });
  router.use(ASSETS, express.static(swaggerUiDir, { index: false }));
  return router;
}
