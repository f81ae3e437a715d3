// Checks answers of the gateway against its OpenAPI document (GET /v2/openapi.json):
// the operation is found by method and path as the router would, the status must be
// one the operation documents, and a JSON body must validate (ajv, JSON Schema
// 2020-12) against the schema documented for that status.
import type { RequestHandler } from 'express';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { OpenApiDocument } from '../../src/platform/http/openapi-document.ts';
import { matchPath } from '../../src/platform/http/websockets.ts';

export interface RecordedResponse {
  method: string;
  /** The request's path, query string included. */
  url: string;
  status: number;
  body: unknown;
}

/** A test-only middleware, installed in front of the app: records every JSON answer into `into`. */
export function recordJsonResponses(into: RecordedResponse[]): RequestHandler {
  return (req, res, next) => {
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      into.push({ method: req.method, url: req.originalUrl, status: res.statusCode, body });
      return json(body);
    };
    next();
  };
}

type Operation = { responses: Record<string, { content?: Record<string, { schema: { $ref?: string } }> }> };

const DOCUMENT_ID = 'openapi';

/** `check` gives the problems of one answer: none when it is as the document says. */
export function responseChecker(document: OpenApiDocument) {
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  ajv.addSchema({ $id: DOCUMENT_ID, components: document.components });
  const templates = Object.keys(document.paths)
    .map((template) => ({ template, pattern: template.replace(/\{(\w+)\}/g, ':$1') }))
    // A literal segment wins over a parameter (/v2/crawl/active before /v2/crawl/{id}), as the router registers them.
    .sort((a, b) => a.pattern.split(':').length - b.pattern.split(':').length);

  function check({ method, url, status, body }: RecordedResponse): string[] {
    const path = url.split('?')[0];
    const found = templates.find(({ template, pattern }) => matchPath(pattern, path) && document.paths[template][method.toLowerCase()]);
    if (!found) return [`${method} ${path}: no such operation in the document`];
    const where = `${method} ${found.template} ${status}`;
    const operation = document.paths[found.template][method.toLowerCase()] as unknown as Operation;
    const answer = operation.responses[String(status)];
    if (!answer) return [`${where}: status not documented`];
    const ref = answer.content?.['application/json']?.schema.$ref;
    if (!ref) return [`${where}: no JSON body documented`];
    const validate = ajv.getSchema(`${DOCUMENT_ID}${ref}`);
    if (!validate) return [`${where}: ${ref} not found`];
    if (validate(body)) return [];
    return (validate.errors ?? []).map((e) => `${where}: ${e.instancePath || '(body)'} ${e.message} ${JSON.stringify(e.params)}`);
  }

  return { check, checkAll: (responses: RecordedResponse[]) => responses.flatMap(check) };
}

/** The problems of the recorded answers, checked against the document the gateway at `baseUrl` serves. */
export async function contractProblems(baseUrl: string, recorded: RecordedResponse[]): Promise<string[]> {
  const document = (await (await fetch(`${baseUrl}/v2/openapi.json`)).json()) as OpenApiDocument;
  return responseChecker(document).checkAll(recorded);
}
