// A conversion thread: turns the HTML pages it is sent into documents
// (html-conversion.ts), and uploaded files into page loads (upload/upload-load.ts),
// one at a time, off the event loop of the process that owns the pool.
import { parentPort } from 'node:worker_threads';
import { convertHtml, type HtmlConversionInput } from './html-conversion.ts';
import { loadUpload, type UploadInput } from '../upload/upload-load.ts';
import type { PageLoad } from '../page-load.ts';

export type ConversionRequest = { id: number; input: HtmlConversionInput } | { id: number; upload: UploadInput };

/** `ready` first, once the thread has loaded its code; then one answer per request. */
export type ConversionReply =
  { ready: true } | { id: number; result: ReturnType<typeof convertHtml> } | { id: number; load: PageLoad } | { id: number; error: string };

parentPort?.on('message', async (request: ConversionRequest) => {
  const { id } = request;
  let reply: ConversionReply;
  try {
    reply = 'upload' in request ? { id, load: await loadUpload(request.upload) } : { id, result: convertHtml(request.input) };
  } catch (err) {
    reply = { id, error: err instanceof Error ? err.message : String(err) };
  }
  parentPort!.postMessage(reply);
});
parentPort?.postMessage({ ready: true } satisfies ConversionReply);
