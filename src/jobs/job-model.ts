// Which model a job may use, and the request checks that go with it: a format
// only a model can produce is a 400 on a server without one (naming the
// setting), and under zero data retention, where a page goes to no one else,
// also when the model is not marked as running where the operator keeps data.
import type { Config } from '../platform/config.ts';
import { DomainError } from '../platform/domain-error.ts';
import { configuredLlm, type LlmSettings } from '../platform/llm/chat-completion.ts';
import { modelFormatsOf } from '../page/model-formats/run-model-formats.ts';
import { changeTrackingFormat, type ScrapeOptions } from '../page/scrape-options.ts';

/** The model the job's pages may be sent to, if any. */
export function jobModel(llm: Config['llm'], zeroDataRetention: boolean): LlmSettings | undefined {
  const configured = configuredLlm(llm);
  return zeroDataRetention && !configured?.local ? undefined : configured;
}

/** How the messages name change tracking's json mode, whose fields a model extracts. */
export const CHANGE_TRACKING_JSON_MODE = 'changeTracking (json mode)';

export function noModelMessage(format: string): string {
  return `The ${format} format needs a model and none is configured on this server (LLM_BASE_URL); leave the format out or ask the operator to set one.`;
}

export function zdrModelMessage(format: string): string {
  return `The ${format} format sends the page to a model, which zero data retention allows only for a model marked local (LLM_IS_LOCAL), and this server's is not.`;
}

/** Throws the 400 of a model format this job cannot have. */
export function checkModelFormats(so: Pick<ScrapeOptions, 'formats'>, zeroDataRetention: boolean, llm: Config['llm']): void {
  const first = modelFormatsOf(so.formats)[0]?.type ?? (changeTrackingFormat(so)?.modes.includes('json') ? CHANGE_TRACKING_JSON_MODE : undefined);
  if (!first) return;
  if (!configuredLlm(llm)) throw new DomainError('invalid', noModelMessage(first), 'MODEL_NOT_CONFIGURED');
  if (!jobModel(llm, zeroDataRetention)) throw new DomainError('invalid', zdrModelMessage(first), 'MODEL_NOT_LOCAL');
}
