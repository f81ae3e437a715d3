// The workflow bundle's entry point: every feature's workflows. Only deterministic
// code may be reachable from here (no database, no browser, no clock).
export { jobWorkflow } from '../src/jobs/workflow.ts';
// Workflows started before the job workflow was named for what it is run as type crawlWorkflow
// (their histories, and the workflows a parent's history started as its children, say so): the
// same function serves them. It can go once no crawlWorkflow run is open on any cluster this
// release upgrades (`temporal workflow count -q "WorkflowType='crawlWorkflow' AND ExecutionStatus='Running'"`
// answers 0) and the fixtures recorded under it are re-recorded or dropped.
export { jobWorkflow as crawlWorkflow } from '../src/jobs/workflow.ts';
export { purgeExpiredWorkflow } from '../src/features/retention/workflow.ts';
export { jobWebhooksWorkflow } from '../src/jobs/webhooks/workflow.ts';
// The job's webhook deliveries ran as crawlWebhooksWorkflow before the rename; it goes with
// crawlWorkflow above, once no run of either type is open.
export { jobWebhooksWorkflow as crawlWebhooksWorkflow } from '../src/jobs/webhooks/workflow.ts';
export { mapWorkflow } from '../src/features/map/workflow.ts';
export { browserSessionWorkflow } from '../src/features/browser-sessions/workflow/workflow.ts';
export { monitorCheckWorkflow } from '../src/features/monitors/check-workflow.ts';
export { extractWorkflow } from '../src/features/extract/workflow.ts';
export { agentWorkflow } from '../src/features/agent/workflow.ts';
export { agentWebhooksWorkflow } from '../src/features/agent/webhooks-workflow.ts';
