// What a request's model and effort become on this server: the model of the
// configured endpoint that answers (spark-1-mini the small one, LLM_SMALL_MODEL;
// the others LLM_MODEL) and the run's step budget (effort low a quarter of
// AGENT_MAX_STEPS, medium half, high and absent all of it).
import type { AgentEffort, AgentModelName } from './agent-request.ts';
import type { AgentFeatureSettings } from './config.ts';

export interface RunPlan {
  /** The model name sent to the endpoint. */
  servedModel: string;
  maxSteps: number;
}

const EFFORT_SHARE: Record<AgentEffort, number> = { low: 0.25, medium: 0.5, high: 1 };

export function runPlan(req: { model?: AgentModelName; effort?: AgentEffort }, config: Pick<AgentFeatureSettings, 'llm' | 'agent'>): RunPlan {
  const servedModel = req.model === 'spark-1-mini' ? (config.llm.smallModel ?? config.llm.model) : config.llm.model;
  const share = req.effort ? EFFORT_SHARE[req.effort] : 1;
  return { servedModel, maxSteps: Math.max(1, Math.ceil(config.agent.maxSteps * share)) };
}
