// A request body is stored as it came (a job's options, webhook metadata, the answer an
// idempotency key repeats), and PostgreSQL refuses U+0000 and lone UTF-16 surrogates
// (db/storable.ts). Page content is cleaned of them; a request is the client's own words,
// so it is refused with a 400 naming the field rather than changed, or failing as a 500 at
// the insert.
import type { RequestHandler } from 'express';
import { isStorableText } from '../db/storable.ts';
import { HttpError } from './http-error.ts';

/**
 * The path (`includePaths.0`, `webhook.metadata.k`) of the first key or string that cannot be
 * stored, or undefined. Iterative: bodies reach here nested as deep as the JSON parser allows.
 */
export function unstorablePath(root: unknown): string | undefined {
  const work: { value: unknown; path: string }[] = [{ value: root, path: '' }];
  const join = (path: string, key: string | number) => (path === '' ? String(key) : `${path}.${key}`);
  while (work.length > 0) {
    const { value, path } = work.pop()!;
    if (typeof value === 'string') {
      if (!isStorableText(value)) return path;
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) work.push({ value: value[i], path: join(path, i) });
    } else if (value !== null && typeof value === 'object') {
      const entries = Object.entries(value as Record<string, unknown>);
      for (const [key] of entries) if (!isStorableText(key)) return join(path, key);
      for (let i = entries.length - 1; i >= 0; i--) work.push({ value: entries[i][1], path: join(path, entries[i][0]) });
    }
  }
  return undefined;
}

export function refuseUnstorableBody(): RequestHandler {
  return (req, _res, next) => {
    const path = req.body === undefined ? undefined : unstorablePath(req.body);
    if (path !== undefined) {
      throw new HttpError(400, `${path || 'body'}: holds U+0000 or a lone UTF-16 surrogate, which this service cannot store; remove it`, 'BAD_REQUEST');
    }
    next();
  };
}
