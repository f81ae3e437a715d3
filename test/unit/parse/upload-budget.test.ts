import { EventEmitter } from 'node:events';
import type { Request, Response } from 'express';
import { describe, expect, it } from 'vitest';
import { createUploadBudget } from '../../../src/features/parse/upload-budget.ts';
import { HttpError } from '../../../src/platform/http/http-error.ts';

const MB = 1024 * 1024;

function request(contentLength?: number): Request {
  return { headers: contentLength === undefined ? {} : { 'content-length': String(contentLength) } } as unknown as Request;
}

function response(): Response & { close(): void; headers: Record<string, string> } {
  const emitter = new EventEmitter();
  const headers: Record<string, string> = {};
  return Object.assign(emitter, {
    headers,
    setHeader: (name: string, value: string) => (headers[name] = value),
    close: () => emitter.emit('close'),
  }) as unknown as Response & { close(): void; headers: Record<string, string> };
}

describe('upload budget', () => {
  it('admits uploads while their declared sizes fit, refuses the next with a 503 and Retry-After, and admits again once one answered', () => {
    const budget = createUploadBudget(10 * MB, 50 * MB);
    const first = response();
    budget.reserve(request(6 * MB), first);
    budget.reserve(request(4 * MB), response());
    expect(budget.held()).toBe(10 * MB);
    const refused = response();
    let error: unknown;
    try {
      budget.reserve(request(1), refused);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 503, code: 'UPLOADS_BUSY', message: expect.stringContaining('PARSE_MAX_INFLIGHT_BYTES') });
    expect(refused.headers['Retry-After']).toBe('5');
    first.close();
    expect(budget.held()).toBe(4 * MB);
    budget.reserve(request(6 * MB), response());
    expect(budget.held()).toBe(10 * MB);
  });

  it('reserves the largest file for a body streamed without Content-Length, and at most the file cap and framing for a declared one', () => {
    const budget = createUploadBudget(1000 * MB, 50 * MB);
    budget.reserve(request(), response());
    expect(budget.held()).toBe(50 * MB);
    budget.reserve(request(900 * MB), response());
    expect(budget.held()).toBe(50 * MB + 52 * MB);
  });

  it('always admits a lone upload, however large its declared size', () => {
    const budget = createUploadBudget(MB, 50 * MB);
    const res = response();
    budget.reserve(request(40 * MB), res);
    expect(budget.held()).toBe(40 * MB);
    res.emit('finish');
    res.close();
    expect(budget.held()).toBe(0);
  });
});
