// A conversion thread: turns the HTML pages it is sent into documents
// (html-conversion.ts), one at a time, off the worker's event loop.
import { parentPort } from 'node:worker_threads';
import { convertHtml, type HtmlConversionInput } from './html-conversion.ts';

export interface ConversionRequest {
  id: number;
  input: HtmlConversionInput;
}

/** `ready` first, once the thread has loaded its code; then one answer per request. */
export type ConversionReply = { ready: true } | { id: number; result: ReturnType<typeof convertHtml> } | { id: number; error: string };

parentPort?.on('message', ({ id, input }: ConversionRequest) => {
  let reply: ConversionReply;
  try {
    reply = { id, result: convertHtml(input) };
  } catch (err) {
    reply = { id, error: err instanceof Error ? err.message : String(err) };
  }
  parentPort!.postMessage(reply);
});
parentPort?.postMessage({ ready: true } satisfies ConversionReply);
