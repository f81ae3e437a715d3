// The API contract: an OpenAPI 3.1 document built from the routes' own zod
// schemas (route-doc.ts) with zod's JSON Schema generator (draft 2020-12, the
// dialect of OpenAPI 3.1). Request bodies and parameters are documented as a
// client sends them (the schemas' input side: before defaults and transforms),
// answers as the gateway sends them (the output side).
import { z } from 'zod';
import { isJobCreating } from './activity-log.ts';
import { errorEnvelopeSchema } from './errors.ts';
import { IDEMPOTENCY_HEADER, MAX_IDEMPOTENCY_KEY_LENGTH } from './idempotency.ts';
import type { RouteAnswer, RouteDoc } from './route-doc.ts';

type JsonSchema = Record<string, unknown>;

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  tags: { name: string }[];
  security: Record<string, string[]>[];
  paths: Record<string, Record<string, JsonSchema>>;
  components: { securitySchemes: Record<string, JsonSchema>; schemas: Record<string, JsonSchema>; headers: Record<string, JsonSchema> };
}

const SCHEMA_REF = '#/components/schemas/';
const ERROR_ENVELOPE = 'ErrorEnvelope';

const ERROR_MEANINGS: Record<number, string> = {
  400: 'The request is invalid: a body or parameter the schema rejects (details lists the issues), or malformed JSON.',
  401: 'The API key is missing, unknown or revoked.',
  402: 'The team has too few credits.',
  403: 'The option is not enabled for the team.',
  404: 'Not found (an unknown id, another team’s job or an expired one all answer the same).',
  408: 'The work did not finish within the request’s timeout.',
  409: 'The resource is in a state that does not allow this (already finished, still running), or the x-idempotency-key was used for another request.',
  410: 'The resource has ended.',
  413: 'The body is larger than the gateway accepts (GATEWAY_BODY_LIMIT).',
  415: 'The body’s encoding or charset is not supported.',
  429: 'The API key’s rate limit (Retry-After says when to retry) or a team limit is reached.',
  500: 'An unexpected error (the answer carries an id to quote), or the job failed.',
  501: 'A Firecrawl cloud service this self-hosted service does not offer (code CLOUD_SERVICE_NOT_OFFERED; docs/api/cloud-services.md).',
  503: 'A service the route needs is unavailable.',
};

/** The rate-limit headers on every answer to a keyed request (rate-limit.ts), and Retry-After on every 429 (errors.ts). */
const HEADERS: Record<string, JsonSchema> = {
  'RateLimit-Limit': { description: 'Requests the API key may make at once after being idle (API_KEY_RATE_LIMIT_BURST).', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: "Whole requests left in the key's bucket.", schema: { type: 'integer' } },
  'RateLimit-Reset': { description: "Seconds until the key's bucket is full again.", schema: { type: 'integer' } },
  'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer' } },
};
const RATE_LIMIT_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];

const IDEMPOTENCY_PARAMETER: JsonSchema = {
  name: IDEMPOTENCY_HEADER,
  in: 'header',
  required: false,
  description:
    'A repeat of the request with the same key within IDEMPOTENCY_KEY_WINDOW_HOURS gets the first answer (the same job) with `Idempotent-Replayed: true`; the same key with another request is a 409 IDEMPOTENCY_KEY_REUSED.',
  schema: { type: 'string', minLength: 1, maxLength: MAX_IDEMPOTENCY_KEY_LENGTH },
};

/** Every route behind the key check: a missing key, the key's rate limit, an unexpected failure. */
const KEYED_ERRORS = [401, 429, 500];
/** What the JSON body parser answers for a body it cannot read. */
const BODY_ERRORS = [400, 413, 415];

const openApiPath = (expressPath: string) => expressPath.replace(/:(\w+)/g, '{$1}');
const pathParamNames = (expressPath: string) => [...expressPath.matchAll(/:(\w+)/g)].map((m) => m[1]);
const pascal = (id: string) => id.charAt(0).toUpperCase() + id.slice(1);
const isJson = (answer: RouteAnswer): answer is z.ZodType => answer instanceof z.ZodType;

/**
 * Drops what zod writes per schema that a component must not carry: `$schema` (the document's
 * dialect is OpenAPI 3.1's) and the `$id` it makes of the uri (a fragment, which an $id must not be).
 */
function bare(schema: JsonSchema): JsonSchema {
  const { $schema: _dialect, $id: _id, ...rest } = schema;
  return rest;
}

/** zod bounds every integer by the safe range; said on every integer field, that is noise (and Swagger UI's example value). */
function dropSafeIntegerBounds({ jsonSchema }: { jsonSchema: JsonSchema }): void {
  if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
  if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
}

const GENERATOR = { unrepresentable: 'any', override: dropSafeIntegerBounds } as const;

/** Parameters of one location from an object schema, each property one parameter. */
function parameters(where: 'path' | 'query', schema: z.ZodObject | undefined, names: string[] = []): JsonSchema[] {
  const json = schema ? (z.toJSONSchema(schema, { ...GENERATOR, io: 'input' }) as JsonSchema) : { properties: {} };
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required as string[] | undefined) ?? []);
  for (const name of names) properties[name] ??= { type: 'string' };
  return Object.entries(properties).map(([name, { description, ...property }]) => ({
    name,
    in: where,
    required: where === 'path' || required.has(name),
    ...(description !== undefined && { description }),
    schema: property,
  }));
}

/** Names each schema once in its registry; a schema two routes share is one component. */
function componentNamer(registry: z.core.$ZodRegistry<{ id: string }>) {
  return (schema: z.ZodType, id: string): JsonSchema => {
    const known = registry.get(schema);
    if (!known) registry.add(schema, { id });
    return { $ref: `${SCHEMA_REF}${known?.id ?? id}` };
  };
}

function components(registry: z.core.$ZodRegistry<{ id: string }>, io: 'input' | 'output'): Record<string, JsonSchema> {
  const { schemas } = z.toJSONSchema(registry, { ...GENERATOR, io, uri: (id) => `${SCHEMA_REF}${id}` });
  return Object.fromEntries(Object.entries(schemas).map(([id, schema]) => [id, bare(schema as JsonSchema)]));
}

const isKeyed = (route: RouteDoc) => (route.auth ?? 'apiKey') === 'apiKey';
const takesIdempotencyKey = (route: RouteDoc) => isJobCreating(route.method, route.path);

function errorStatuses(route: RouteDoc): number[] {
  const statuses = new Set(route.errors ?? []);
  if (isKeyed(route)) for (const s of KEYED_ERRORS) statuses.add(s);
  if (route.body) for (const s of BODY_ERRORS) statuses.add(s);
  if (takesIdempotencyKey(route)) statuses.add(409);
  return [...statuses].sort((a, b) => a - b);
}

/** The headers an answer of this route and status carries, as references to the shared components. */
function headersOf(route: RouteDoc, status: string): JsonSchema | undefined {
  const names = [...(isKeyed(route) ? RATE_LIMIT_HEADERS : []), ...(status === '429' ? ['Retry-After'] : [])];
  if (names.length === 0) return undefined;
  return Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));
}

export function buildOpenApiDocument(routes: RouteDoc[], info: OpenApiDocument['info']): OpenApiDocument {
  const inputs = z.registry<{ id: string }>();
  const outputs = z.registry<{ id: string }>();
  const requestRef = componentNamer(inputs);
  const responseRef = componentNamer(outputs);
  const errorRef = responseRef(errorEnvelopeSchema, ERROR_ENVELOPE);
  const paths: OpenApiDocument['paths'] = {};

  for (const route of routes) {
    const name = pascal(route.operationId);
    const responses: Record<string, JsonSchema> = {};
    for (const [status, answer] of Object.entries(route.responses)) {
      responses[status] = isJson(answer)
        ? {
            description: answer.description ?? 'Success',
            content: { 'application/json': { schema: responseRef(answer, status === '200' ? `${name}Response` : `${name}Response${status}`) } },
          }
        : { description: answer.html, content: { 'text/html': { schema: { type: 'string' } } } };
    }
    for (const status of errorStatuses(route)) {
      responses[status] ??= { description: ERROR_MEANINGS[status] ?? 'Error', content: { 'application/json': { schema: errorRef } } };
    }
    for (const [status, response] of Object.entries(responses)) {
      const headers = headersOf(route, status);
      if (headers) response.headers = headers;
    }
    const operation: JsonSchema = {
      operationId: route.operationId,
      summary: route.summary,
      ...(route.description && { description: route.description }),
      tags: [route.tag],
      parameters: [
        ...parameters('path', route.params, pathParamNames(route.path)),
        ...parameters('query', route.query),
        ...(takesIdempotencyKey(route) ? [IDEMPOTENCY_PARAMETER] : []),
      ],
      ...(route.body && {
        requestBody: { required: true, content: { [route.bodyMediaType ?? 'application/json']: { schema: requestRef(route.body, `${name}Request`) } } },
      }),
      responses,
      ...(route.auth === 'public' && { security: [] }),
    };
    (paths[openApiPath(route.path)] ??= {})[route.method] = operation;
  }

  return {
    openapi: '3.1.0',
    info,
    tags: [...new Set(routes.map((r) => r.tag))].map((tag) => ({ name: tag })),
    security: [{ apiKey: [] }],
    paths,
    components: {
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description:
            'An API key of the team (`npm run cli -- key create --team <team>`), sent as `Authorization: Bearer <key>`. Operations marked with no security are public.',
        },
      },
      schemas: { ...components(inputs, 'input'), ...components(outputs, 'output') },
      headers: HEADERS,
    },
  };
}
