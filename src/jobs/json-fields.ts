// Where a job's documents keep the json format's result: `json`, unless the job names
// other fields (a /v1 request's `extract` format, whose result v1 clients read under
// `extract`). Placed before the document is stored, so every reader of the page (status,
// watcher, webhook event) hands it out as the job's API names it.
import type { PageDocument } from '../page/document-schema.ts';
import type { JsonField } from './crawl-request.ts';

export function placeJsonResult(document: PageDocument, fields: readonly JsonField[] | undefined): PageDocument {
  if (!fields || !('json' in document)) return document;
  const { json, ...rest } = document;
  return { ...rest, ...Object.fromEntries(fields.map((f) => [f, json])) };
}
