// Where a worker gets its workflow code. Bundling it (webpack) costs about ten
// seconds of CPU per worker start, so an image builds the bundle once
// (scripts/bundle-workflows.ts) and points TEMPORAL_WORKFLOW_BUNDLE at it; a
// worker without one bundles the sources at start-up. Both bundles have the
// same entry and interceptor modules.
import { bundleWorkflowCode, type Logger, type WorkerOptions } from '@temporalio/worker';
import { REQUEST_ID_WORKFLOW_INTERCEPTORS } from './request-id-activity-interceptor.ts';
import { WORKFLOWS_PATH } from './workflows-path.ts';

const WORKFLOW_INTERCEPTOR_MODULES = [REQUEST_ID_WORKFLOW_INTERCEPTORS];

export function workflowCodeOptions(bundlePath: string | undefined): Pick<WorkerOptions, 'workflowBundle' | 'workflowsPath'> & {
  workflowModules: string[];
} {
  // A prebuilt bundle already contains the interceptor modules; the SDK ignores them beside it.
  return bundlePath
    ? { workflowBundle: { codePath: bundlePath }, workflowModules: [] }
    : { workflowsPath: WORKFLOWS_PATH, workflowModules: WORKFLOW_INTERCEPTOR_MODULES };
}

export async function bundleWorkflows(logger?: Logger): Promise<string> {
  const { code } = await bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, workflowInterceptorModules: WORKFLOW_INTERCEPTOR_MODULES, logger });
  return code;
}
