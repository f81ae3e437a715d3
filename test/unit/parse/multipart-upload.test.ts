// The upload reader on bodies cut short: every part's stream ends in an answer,
// whatever its name, and nothing escapes as an uncaught error.
import { PassThrough } from 'node:stream';
import type { Request } from 'express';
import { describe, expect, it } from 'vitest';
import { readMultipartUpload } from '../../../src/features/parse/multipart-upload.ts';
import type { HttpError } from '../../../src/platform/http/http-error.ts';
import { collectUncaughtErrors } from '../../support/uncaught-errors.ts';

const BOUNDARY = 'b0undary';

function request(body: string): Request {
  const stream = new PassThrough();
  const req = Object.assign(stream, {
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    is: (type: string) => type === 'multipart/form-data',
  });
  setImmediate(() => stream.end(body));
  return req as unknown as Request;
}

const part = (name: string, content: string, filename?: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"` : ''}\r\n\r\n${content}\r\n`;

const uncaught = collectUncaughtErrors();

async function refusal(body: string): Promise<HttpError> {
  const err = await readMultipartUpload(request(body), 1024).then(
    () => expect.unreachable('the upload was accepted'),
    (e: HttpError) => e,
  );
  await new Promise((r) => setTimeout(r, 20));
  expect(uncaught()).toEqual([]);
  return err;
}

describe('readMultipartUpload', () => {
  it('reads a file and its options', async () => {
    const upload = await readMultipartUpload(request(`${part('options', '{}')}${part('file', 'hello', 'a.txt')}--${BOUNDARY}--\r\n`), 1024);
    expect(upload).toEqual({ options: '{}', file: { filename: 'a.txt', contentType: 'text/plain', bytes: Buffer.from('hello') } });
  });

  it('a file part under another name, in a body without its closing boundary, is a 400', async () => {
    const err = await refusal(part('other', 'x', 'x.txt'));
    expect([err.status, err.code]).toEqual([400, 'BAD_MULTIPART']);
    expect(err.message).toContain('"other"');
  });

  // busboy announces this part only as the body ends, and then fails its stream.
  it('a body that ends right after the header of a file part under another name is a 400', async () => {
    const err = await refusal(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="options"; filename="a.txt"\r\n\r\n`);
    expect([err.status, err.code]).toEqual([400, 'BAD_MULTIPART']);
    expect(err.message).toContain('"options"');
  });

  it('a file part cut short is a 400', async () => {
    const err = await refusal(part('file', 'hello', 'a.txt').slice(0, -4));
    expect([err.status, err.code]).toEqual([400, 'BAD_MULTIPART']);
  });

  it('a second file cut short after the limit is a 400', async () => {
    const err = await refusal(`${part('file', 'a', 'a.txt')}${part('file', 'b', 'b.txt')}`);
    expect(err.status).toBe(400);
  });
});
