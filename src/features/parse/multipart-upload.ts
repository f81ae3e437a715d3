// Reads the multipart body of POST /v2/parse as it streams in: one `file` part,
// held in memory up to PARSE_MAX_FILE_BYTES and no further (413 the moment it
// passes it), and at most one `options` part (JSON text). Any other part, a
// second file or a malformed body is a 400 naming it. The rest of a refused
// body is read and dropped (the server's request timeout bounds how long), so
// the client gets its answer instead of a reset.
import type { Readable } from 'node:stream';
import type { Request } from 'express';
import busboy from 'busboy';
import { HttpError } from '../../platform/http/http-error.ts';

/** Longest `options` part (it may hold a json format's schema). */
export const MAX_OPTIONS_BYTES = 1024 * 1024;
/** Longest file name kept; the rest is cut. */
const MAX_FILENAME_CHARS = 255;

export interface UploadedFile {
  filename: string;
  /** The part's Content-Type, if it had one. */
  contentType?: string;
  bytes: Buffer;
}

export interface MultipartUpload {
  /** The `options` part as sent (JSON text), if there was one. */
  options?: string;
  file: UploadedFile;
}

const bad = (message: string, code = 'BAD_REQUEST') => new HttpError(400, message, code);

/** Why the request is not a body this endpoint reads (its media type, its encoding), or undefined. */
function refusal(req: Request): HttpError | undefined {
  if (!req.is('multipart/form-data')) {
    return new HttpError(415, 'POST /v2/parse takes multipart/form-data: a "file" part and an optional "options" part (JSON text).', 'UNSUPPORTED_MEDIA_TYPE');
  }
  const encoding = req.headers['content-encoding'];
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity') {
    return new HttpError(415, `Content-Encoding ${encoding} is not accepted for uploads: send the file as it is.`, 'UNSUPPORTED_MEDIA_TYPE');
  }
  return undefined;
}

/** The file part in memory once it ends; `tooLarge` is called when busboy cuts it at its fileSize limit. */
function collectFile(stream: Readable, info: busboy.FileInfo, tooLarge: () => void): Promise<UploadedFile> {
  return new Promise((done) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('limit', tooLarge);
    stream.on('end', () =>
      done({
        filename: (info.filename ?? '').slice(0, MAX_FILENAME_CHARS),
        contentType: info.mimeType || undefined,
        bytes: Buffer.concat(chunks),
      }),
    );
  });
}

export function readMultipartUpload(req: Request, maxFileBytes: number): Promise<MultipartUpload> {
  const refused = refusal(req);
  if (refused) return Promise.reject(refused);
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        // busboy calls a file that reaches fileSize too large, even when it ends there.
        limits: { files: 1, fields: 1, fileSize: maxFileBytes + 1, fieldSize: MAX_OPTIONS_BYTES, headerPairs: 20 },
      });
    } catch (err) {
      return reject(bad(`The multipart body cannot be read: ${(err as Error).message}`, 'BAD_MULTIPART'));
    }
    let settled = false;
    let options: string | undefined;
    let file: Promise<UploadedFile> | undefined;
    // The answer waits until the client has sent its whole body: answering mid-upload would
    // close the connection under a client still writing, which then sees a reset, not the error.
    const fail = (err: HttpError) => {
      if (settled) return;
      settled = true;
      req.unpipe(parser);
      if (req.readableEnded) return reject(err);
      req.once('end', () => reject(err));
      req.once('close', () => reject(err));
      req.resume();
    };

    parser.on('field', (name, value, info) => {
      if (name !== 'options') return fail(bad(`Unknown part "${name}": the parts are "file" and "options".`, 'BAD_MULTIPART'));
      if (info.valueTruncated) return fail(new HttpError(413, `The options part is larger than ${MAX_OPTIONS_BYTES} bytes.`, 'PAYLOAD_TOO_LARGE'));
      options = value;
    });
    parser.on('file', (name, stream, info) => {
      // A body that ends inside a file part (cut short, no closing boundary) fails its stream,
      // whatever the part's name: busboy may announce the part only as the body ends.
      stream.on('error', (err: Error) => fail(bad(`The multipart body cannot be read: ${err.message}`, 'BAD_MULTIPART')));
      if (name !== 'file') {
        stream.resume();
        return fail(bad(`Unknown part "${name}": the file goes in a part named "file".`, 'BAD_MULTIPART'));
      }
      file = collectFile(stream, info, () =>
        fail(new HttpError(413, `The file is larger than ${maxFileBytes} bytes, the most POST /v2/parse accepts (PARSE_MAX_FILE_BYTES).`, 'FILE_TOO_LARGE')),
      );
    });
    parser.on('filesLimit', () => fail(bad('Only one file per request: send one "file" part.', 'TOO_MANY_FILES')));
    parser.on('fieldsLimit', () => fail(bad('Only one "options" part per request.', 'BAD_MULTIPART')));
    parser.on('error', (err: Error) => fail(bad(`The multipart body cannot be read: ${err.message}`, 'BAD_MULTIPART')));
    parser.on('close', () => {
      if (settled) return;
      if (!file) return fail(bad('The "file" part is missing: send the file as a multipart part named "file".', 'MISSING_FILE'));
      void file.then((uploaded) => {
        if (settled) return;
        if (uploaded.bytes.length === 0) return fail(bad('The file is empty.', 'EMPTY_FILE'));
        settled = true;
        resolve({ options, file: uploaded });
      });
    });
    req.on('error', (err) => fail(bad(`The upload was interrupted: ${err.message}`, 'BAD_MULTIPART')));
    req.pipe(parser);
  });
}
