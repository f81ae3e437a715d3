// Workflow side of request ids (bundled into the workflow code, so deterministic):
// the id in the workflow's memo goes on every activity it schedules as a header,
// into the memo of its children and continued runs, and on its own log lines.
import { defaultPayloadConverter, type Headers } from '@temporalio/common';
import { workflowInfo, type WorkflowInterceptorsFactory, type WorkflowOutboundCallsInterceptor } from '@temporalio/workflow';
import { REQUEST_ID_KEY } from './request-id-keys.ts';

function requestId(): string | undefined {
  const id = workflowInfo().memo?.[REQUEST_ID_KEY];
  return typeof id === 'string' ? id : undefined;
}

function withHeader(headers: Headers): Headers {
  const id = requestId();
  return id === undefined ? headers : { ...headers, [REQUEST_ID_KEY]: defaultPayloadConverter.toPayload(id) };
}

function withMemo(memo: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  const id = requestId();
  return id === undefined ? memo : { [REQUEST_ID_KEY]: id, ...memo };
}

const outbound: WorkflowOutboundCallsInterceptor = {
  scheduleActivity: (input, next) => next({ ...input, headers: withHeader(input.headers) }),
  scheduleLocalActivity: (input, next) => next({ ...input, headers: withHeader(input.headers) }),
  startChildWorkflowExecution: (input, next) => next({ ...input, options: { ...input.options, memo: withMemo(input.options.memo) } }),
  continueAsNew: (input, next) => next({ ...input, options: { ...input.options, memo: withMemo(input.options.memo) } }),
  getLogAttributes: (input, next) => {
    const id = requestId();
    return next(id === undefined ? input : { ...input, [REQUEST_ID_KEY]: id });
  },
};

export const interceptors: WorkflowInterceptorsFactory = () => ({ outbound: [outbound] });
