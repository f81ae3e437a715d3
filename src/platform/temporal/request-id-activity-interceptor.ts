// Worker side of request ids: an activity whose workflow carries one (the header
// the workflow interceptor sets) runs with it bound to every log line, ours and the SDK's.
import { fileURLToPath } from 'node:url';
import { defaultPayloadConverter } from '@temporalio/common';
import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import { withLogFields } from '../log.ts';
import { REQUEST_ID_KEY } from './request-id-keys.ts';

/** The workflow interceptor module a worker running workflows bundles (WorkerInterceptors.workflowModules). */
export const REQUEST_ID_WORKFLOW_INTERCEPTORS = fileURLToPath(new URL('./request-id-workflow-interceptors.ts', import.meta.url));

export const requestIdActivityInterceptor: ActivityInterceptorsFactory = () => {
  let requestId: string | undefined;
  return {
    inbound: {
      execute(input, next) {
        const header = input.headers[REQUEST_ID_KEY];
        const id = header === undefined ? undefined : defaultPayloadConverter.fromPayload(header);
        if (typeof id !== 'string') return next(input);
        requestId = id;
        return withLogFields({ [REQUEST_ID_KEY]: id }, () => next(input));
      },
    },
    outbound: {
      getLogAttributes: (attributes, next) => next(requestId === undefined ? attributes : { ...attributes, [REQUEST_ID_KEY]: requestId }),
    },
  };
};
