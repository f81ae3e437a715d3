// The API request an execute answers (POST /v2/browser/{id}/execute, POST
// /v2/scrape/{id}/interact), as executeInSession sees it.
import type { Response } from 'express';
import { deadlineOf, stillWaiting } from '../../../platform/http/request-deadline.ts';
import type { ExecuteRequester } from './execute-in-session.ts';

export function executeRequesterOf(res: Response): ExecuteRequester {
  return {
    waiting: () => stillWaiting(res),
    // The deadline answers 503 only while a dependency is away; a running execute waits on neither, so its deadline is its run.
    running: (ms) => deadlineOf(res).setTimeout(Date.now() - deadlineOf(res).arrivedAt + ms),
  };
}
