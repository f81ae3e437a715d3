// Conversion threads: turning a page into its document (parsing, cleaning,
// markdown, the index entry; several ms of CPU a page) runs beside the worker's
// event loop, which keeps to fetches, heartbeats and database writes. Each
// thread converts one page at a time. Pages are written by strangers: one that
// takes longer than CRAWL_CONVERSION_TIMEOUT_MS has its thread stopped and
// replaced and fails alone, instead of stalling the event loop. There is no heap
// cap per thread: V8's resourceLimits turned out to abort the whole process
// instead of the thread; a page's memory is bounded by CRAWL_MAX_PAGE_BYTES.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ConversionReply, ConversionRequest } from './conversion-thread.ts';
import type { HtmlConversionInput, HtmlConverter, HtmlOutcome } from './html-conversion.ts';
import type { UploadInput } from '../upload/upload-load.ts';
import type { PageLoad } from '../page-load.ts';

export interface ConversionPoolOptions {
  threads: number;
  /** Longest a page's conversion may take. */
  timeoutMs: number;
  /** The setting `timeoutMs` comes from, named when a conversion runs out of it. */
  timeoutSetting?: string;
}

export interface ConversionPool {
  convert: HtmlConverter;
  /** An uploaded file read into a page load (POST /v2/parse); its HTML is then converted by `convert`. */
  loadUpload(input: UploadInput): Promise<PageLoad>;
  close(): Promise<void>;
}

interface Job {
  id: number;
  work: { input: HtmlConversionInput } | { upload: UploadInput };
  resolve(result: HtmlOutcome | PageLoad): void;
  reject(error: Error): void;
}

interface Thread {
  worker: Worker;
  job?: Job;
  timer?: NodeJS.Timeout;
}

// The thread runs TypeScript like the worker does: it inherits Node's type transform from a process
// started with it (src/platform/process/typescript-runtime.mjs); elsewhere (a test runner's process,
// which strips types at most) it loads tsx, since the modules use TypeScript beyond erasable syntax.
const THREAD_EXEC_ARGV =
  process.features.typescript === 'transform' ? undefined : ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href];

/** Ends the thread's page: its timer stops and its job, if any, is handed back for settling. */
function settle(thread: Thread): Job | undefined {
  clearTimeout(thread.timer);
  const job = thread.job;
  thread.job = undefined;
  return job;
}

/** Settles the job with the thread's reply, when the reply is that job's. */
function answer(job: Job | undefined, reply: Exclude<ConversionReply, { ready: true }>): void {
  if (job?.id !== reply.id) return;
  if ('error' in reply) job.reject(new Error(reply.error));
  else job.resolve('load' in reply ? reply.load : reply.result);
}

export function createConversionPool(opts: ConversionPoolOptions): ConversionPool {
  const threads = new Set<Thread>();
  const idle: Thread[] = [];
  const queue: Job[] = [];
  let nextId = 0;
  let closed = false;

  const replace = (thread: Thread, why: Error) => {
    settle(thread)?.reject(why);
    threads.delete(thread);
    const at = idle.indexOf(thread);
    if (at >= 0) idle.splice(at, 1);
    void thread.worker.terminate();
    if (!closed) spawn();
  };

  const spawn = (): void => {
    const worker = new Worker(new URL('./conversion-thread.ts', import.meta.url), { execArgv: THREAD_EXEC_ARGV });
    // An idle pool never keeps the process alive.
    worker.unref();
    const thread: Thread = { worker };
    threads.add(thread);
    worker.on('message', (reply: ConversionReply) => {
      // A late answer from a thread already replaced (its page timed out) is dropped.
      if (!threads.has(thread)) return;
      // A thread takes pages once its code is loaded: the timeout is the page's, not the start-up's.
      if ('ready' in reply) {
        idle.push(thread);
        return dispatch();
      }
      answer(settle(thread), reply);
      idle.push(thread);
      dispatch();
    });
    worker.on('error', (err) => replace(thread, new Error(`the conversion thread failed: ${err.message}`)));
    worker.on('exit', () => {
      if (threads.has(thread)) replace(thread, new Error('the conversion thread exited'));
    });
  };

  const dispatch = () => {
    while (queue.length > 0 && idle.length > 0) {
      const thread = idle.pop()!;
      const job = queue.shift()!;
      thread.job = job;
      thread.timer = setTimeout(
        () => replace(thread, new Error(`converting the page took longer than ${opts.timeoutMs} ms (${opts.timeoutSetting ?? 'CRAWL_CONVERSION_TIMEOUT_MS'})`)),
        opts.timeoutMs,
      );
      thread.worker.postMessage({ id: job.id, ...job.work } satisfies ConversionRequest);
    }
  };

  const run = <T extends HtmlOutcome | PageLoad>(work: Job['work']) =>
    new Promise<T>((resolve, reject) => {
      if (closed) return reject(new Error('the conversion pool is closed'));
      // Threads start on first use: a worker that never converts a page starts none.
      while (threads.size < opts.threads) spawn();
      queue.push({ id: nextId++, work, resolve: resolve as Job['resolve'], reject });
      dispatch();
    });

  return {
    convert: (input) => run<HtmlOutcome>({ input }),
    loadUpload: (upload) => run<PageLoad>({ upload }),
    async close() {
      closed = true;
      for (const job of queue.splice(0)) job.reject(new Error('the conversion pool is closed'));
      const all = [...threads];
      threads.clear();
      idle.length = 0;
      for (const thread of all) settle(thread)?.reject(new Error('the conversion pool is closed'));
      await Promise.all(all.map((t) => t.worker.terminate()));
    },
  };
}
