// The bytes of uploads a gateway holds at once. Each upload is held in memory
// while it is read, waits for a team slot and is converted; without a cap, many
// large uploads at once (any mix of teams) would take the process's memory. A
// request reserves its Content-Length (or, streamed without one, the largest file
// allowed) before a byte is read, and gives it back when its answer has gone.
import type { Request, Response } from 'express';
import { HttpError } from '../../platform/http/http-error.ts';

export interface UploadBudget {
  /** Reserves the request's bytes until the answer is finished; throws a 503 when they do not fit. */
  reserve(req: Request, res: Response): void;
  /** Bytes reserved now. */
  held(): number;
}

export function createUploadBudget(maxInflightBytes: number, maxFileBytes: number): UploadBudget {
  let held = 0;
  return {
    reserve(req, res) {
      const declared = Number(req.headers['content-length']);
      // A body is never held beyond the file cap plus the options part and the multipart framing.
      const bytes = Number.isSafeInteger(declared) && declared >= 0 ? Math.min(declared, maxFileBytes + 2 * 1024 * 1024) : maxFileBytes;
      if (held > 0 && held + bytes > maxInflightBytes) {
        res.setHeader('Retry-After', '5');
        throw new HttpError(
          503,
          `This gateway is holding ${held} bytes of uploads, and this one would pass PARSE_MAX_INFLIGHT_BYTES (${maxInflightBytes}); retry shortly.`,
          'UPLOADS_BUSY',
        );
      }
      held += bytes;
      // 'finish' once the answer is handed over, 'close' also when the client went away first.
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        held -= bytes;
      };
      res.once('finish', release);
      res.once('close', release);
    },
    held: () => held,
  };
}
