// The agent's section of the settings (src/config.ts composes them all).
import { positiveInt } from '../../platform/config/env.ts';
import type { JobSettings } from '../../jobs/config.ts';

export function agentConfig() {
  return {
    /** Steps (a model call and a tool run) an agent may take; one that has not answered by then ends failed. */
    maxSteps: positiveInt('AGENT_MAX_STEPS', 20),
    /** Credits an agent's tools may spend when the request gives no maxCredits; past them the agent ends failed. */
    defaultMaxCredits: positiveInt('AGENT_DEFAULT_MAX_CREDITS', 2500),
    /** Most characters of one tool's answer (a page's markdown, a list of links) the model reads; the rest is cut. */
    maxObservationChars: positiveInt('AGENT_MAX_OBSERVATION_CHARS', 12_000),
    /** How long a scrape or map run as a tool may take before it counts as failed for the model. */
    toolTimeoutMs: positiveInt('AGENT_TOOL_TIMEOUT_MS', 60_000),
    /** Hours an ended agent's answer stays readable (expiresAt). */
    resultTtlHours: positiveInt('AGENT_RESULT_TTL_HOURS', 24),
  };
}

export type AgentSettings = ReturnType<typeof agentConfig>;

/** What the agent reads: its section and the job engine's (it runs scrapes, maps and searches as tools). */
export type AgentFeatureSettings = JobSettings & { agent: AgentSettings };
