// The agent's activities, on the control queue, wired to the functions that do them.
// Each step is two: agentDecide asks the model (agent-decide.ts), then agentAct runs
// the chosen tool and stores what it answered (agent-act.ts). Answers, failures and
// budgets end the row there; agentEnd ends it for the workflow (step budget,
// cancellation). Every write checks the row is still processing, and the webhook
// events go with the writes that make them true (agent-events.ts).
import type { FeatureActivityDeps } from '../../platform/feature.ts';
import type { AgentDecision, AgentObservation, AgentStopReason } from './definitions.ts';
import { decideAgentStep, type AgentDeps } from './agent-decide.ts';
import { runAgentStep } from './agent-act.ts';
import { endAgentNow } from './agent-row.ts';
import type { AgentFeatureSettings } from './config.ts';

export function createAgentActivities({ db, config, log, tools }: FeatureActivityDeps<AgentFeatureSettings>) {
  const deps: AgentDeps = { db, config, log, toolList: [...tools.values()] };
  return {
    async agentDecide(agentId: string, step: number, maxSteps: number): Promise<AgentDecision> {
      return decideAgentStep(deps, agentId, step, maxSteps);
    },

    async agentAct(agentId: string, step: number, maxCredits: number): Promise<AgentObservation> {
      return runAgentStep(deps, agentId, step, maxCredits);
    },

    async agentEnd(agentId: string, status: 'failed' | 'cancelled', error?: string, stopReason?: AgentStopReason): Promise<void> {
      await endAgentNow(deps, agentId, status, {
        ...(error !== undefined && { error }),
        stopReason: stopReason ?? (status === 'cancelled' ? 'cancelled' : 'failed'),
      });
    },
  };
}

export type AgentActivities = ReturnType<typeof createAgentActivities>;
