// The Server-Timing answer header (W3C Server Timing): how long each step of a request took in
// the gateway, measured here rather than guessed from outside. A route marks the end of each of
// its steps; every step lasts from the previous mark (the first from the request's arrival).
// bench/scrape.ts reads it to split a scrape's round trip, and lines the steps up with other clocks
// of the machine (a workflow's history) by the last entry, the arrival's time (epoch ms). Only
// requests that marked a step carry it.
import type { RequestHandler, Response } from 'express';

interface Marks {
  arrived: number;
  steps: { name: string; at: number }[];
}

function marksOf(res: Response): Marks | undefined {
  return res.locals.serverTiming as Marks | undefined;
}

/** Ends the request's step `name` now; steps are named by what they did (a token: letters, digits, `-`). */
export function markStep(res: Response, name: string): void {
  marksOf(res)?.steps.push({ name, at: performance.now() });
}

/** The header's value: each step's duration in ms, in order. */
function serverTimingValue(marks: Marks): string {
  let from = marks.arrived;
  const steps = marks.steps.map(({ name, at }) => {
    const dur = at - from;
    from = at;
    return `${name};dur=${dur.toFixed(1)}`;
  });
  return [...steps, `arrived;desc=${(performance.timeOrigin + marks.arrived).toFixed(1)}`].join(', ');
}

/** Starts the clock at the request's arrival and writes the header with the answer's head. */
export function serverTiming(): RequestHandler {
  return (_req, res, next) => {
    const marks: Marks = { arrived: performance.now(), steps: [] };
    res.locals.serverTiming = marks;
    const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => Response;
    res.writeHead = ((...args: unknown[]) => {
      if (marks.steps.length > 0 && !res.headersSent) res.setHeader('Server-Timing', serverTimingValue(marks));
      return writeHead(...args);
    }) as Response['writeHead'];
    next();
  };
}
