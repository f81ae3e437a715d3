// The workflow bundle's entry point: every feature's workflows. Only deterministic
// code may be reachable from here (no database, no browser, no clock).
export { crawlWorkflow } from '../src/jobs/workflow.ts';
export { purgeExpiredWorkflow } from '../src/features/retention/workflow.ts';
export { crawlWebhooksWorkflow } from '../src/jobs/webhooks/workflow.ts';
export { mapWorkflow } from '../src/features/map/workflow.ts';
export { browserSessionWorkflow } from '../src/features/browser-sessions/workflow/workflow.ts';
export { monitorCheckWorkflow } from '../src/features/monitors/check-workflow.ts';
export { extractWorkflow } from '../src/features/extract/workflow.ts';
export { agentWorkflow } from '../src/features/agent/workflow.ts';
export { agentWebhooksWorkflow } from '../src/features/agent/webhooks-workflow.ts';
