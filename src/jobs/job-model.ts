// Which model a job may use, and the request checks that go with it: a format
// only a model can produce is a 400 on a server without one (naming the
// setting), and under zero data retention, where a page goes to no one else,
// also when the model is not marked as running where the operator keeps data.
import type { LlmServiceSettings } from '../platform/llm/config.ts';
import { DomainError } from '../platform/domain-error.ts';
import { configuredLlm, type LlmSettings } from '../platform/llm/chat-completion.ts';
import { modelFormatsOf } from '../page/model-formats/run-model-formats.ts';
import { formatModule } from '../page/formats/registry.ts';
import type { ScrapeOptions } from '../page/scrape-options.ts';
import { redactionModelEntities } from '../page/redaction/redact-document.ts';

/** The model the job's pages may be sent to, if any. */
export function jobModel(llm: LlmServiceSettings, zeroDataRetention: boolean): LlmSettings | undefined {
  const configured = configuredLlm(llm);
  return zeroDataRetention && !configured?.local ? undefined : configured;
}

export function noModelMessage(format: string): string {
  return `The ${format} format needs a model and none is configured on this server (LLM_BASE_URL); leave the format out or ask the operator to set one.`;
}

export function zdrModelMessage(format: string): string {
  return `The ${format} format sends the page to a model, which zero data retention allows only for a model marked local (LLM_IS_LOCAL), and this server's is not.`;
}

/**
 * Throws the 400 of a model format this job cannot have, or of redactPII entities only a model finds
 * (PERSON and LOCATION, asked for by name or by default) when no model may read the job's pages.
 */
export function checkModelFormats(so: Pick<ScrapeOptions, 'formats' | 'redactPII'>, zeroDataRetention: boolean, llm: LlmServiceSettings): void {
  // A model format first, then a format that needs a model for one of its options (change tracking's json mode).
  const first = modelFormatsOf(so.formats)[0]?.type ?? so.formats.map((f) => formatModule(f.type).needsModel?.(f)).find((name) => name !== undefined);
  if (first) {
    if (!configuredLlm(llm)) throw new DomainError('invalid', noModelMessage(first), 'MODEL_NOT_CONFIGURED');
    if (!jobModel(llm, zeroDataRetention)) throw new DomainError('invalid', zdrModelMessage(first), 'MODEL_NOT_LOCAL');
  }
  const entities = redactionModelEntities(so.redactPII).join(' and ');
  if (!entities) return;
  if (!configuredLlm(llm)) throw new DomainError('invalid', noRedactionModelMessage(entities), 'MODEL_NOT_CONFIGURED');
  if (!jobModel(llm, zeroDataRetention)) {
    throw new DomainError(
      'invalid',
      `redactPII: ${entities} are found by a model, and zero data retention allows sending pages only to a model marked local (LLM_IS_LOCAL), which this server's is not; use redactPII {"mode": "fast"} (patterns only) or name only EMAIL, PHONE, FINANCIAL and SECRET in its entities.`,
      'MODEL_NOT_LOCAL',
    );
  }
}

export function noRedactionModelMessage(entities: string): string {
  return `redactPII: ${entities} are found by a model and none is configured on this server (LLM_BASE_URL); use redactPII {"mode": "fast"} (patterns only) or name only EMAIL, PHONE, FINANCIAL and SECRET in its entities.`;
}
