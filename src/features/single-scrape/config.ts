// The settings this feature reads; it has no section of its own (src/config.ts composes them all).
import type { JobSettings } from '../../jobs/config.ts';

/** What single scrapes read: the job engine's settings and, as the agent's tool, the agent's tool timeout. */
export type SingleScrapeFeatureSettings = JobSettings & { agent: { toolTimeoutMs: number } };
