// Where a worker process gets its workflow code. Bundling it (webpack) costs about ten
// seconds of CPU, so an image builds the bundle once (scripts/bundle-workflows.ts) and
// points TEMPORAL_WORKFLOW_BUNDLE at it; a process without one bundles the sources once
// at start-up, for all of its workflow workers. Both bundles have the same entry and
// interceptor modules.
import { bundleWorkflowCode, Runtime, type Logger, type WorkerOptions } from '@temporalio/worker';
import { REQUEST_ID_WORKFLOW_INTERCEPTORS } from './request-id-activity-interceptor.ts';
import { WORKFLOWS_PATH } from './workflows-path.ts';

const WORKFLOW_INTERCEPTOR_MODULES = [REQUEST_ID_WORKFLOW_INTERCEPTORS];

export async function workflowCodeOptions(bundlePath: string | undefined): Promise<Pick<WorkerOptions, 'workflowBundle'>> {
  return { workflowBundle: bundlePath ? { codePath: bundlePath } : { code: await bundleWorkflows(Runtime.instance().logger) } };
}

export async function bundleWorkflows(logger?: Logger): Promise<string> {
  const { code } = await bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, workflowInterceptorModules: WORKFLOW_INTERCEPTOR_MODULES, logger });
  return code;
}
