// Every workflow a client starts inside an API request carries that request's id
// in its memo, and its start is logged: `grep <request id>` finds the request's
// line, this one, and the lines of the workflow's activities.
import type { WorkflowClientInterceptor } from '@temporalio/client';
import { boundLogFields, type Logger } from '../log.ts';
import { REQUEST_ID_KEY } from './request-id-keys.ts';

export function requestIdClientInterceptor(log: Logger): WorkflowClientInterceptor {
  return {
    async startWithDetails(input, next) {
      const requestId = boundLogFields().requestId;
      const options = typeof requestId === 'string' ? { ...input.options, memo: { ...input.options.memo, [REQUEST_ID_KEY]: requestId } } : input.options;
      const started = await next({ ...input, options });
      log.info('workflow started', { workflowId: options.workflowId, workflowType: input.workflowType, runId: started.runId });
      return started;
    },
  };
}
