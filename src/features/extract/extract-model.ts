// The model an extract needs: without model settings it is a 400 naming the
// setting; under zero data retention a model not marked local is one too, since
// an extract always sends page text to the model.
import { DomainError } from '../../platform/domain-error.ts';
import { configuredLlm } from '../../platform/llm/chat-completion.ts';
import { jobModel } from '../../jobs/job-model.ts';
import type { LlmServiceSettings } from '../../platform/llm/config.ts';

export const NO_MODEL_MESSAGE = 'An extract needs a model and none is configured on this server (LLM_BASE_URL, LLM_MODEL); ask the operator to set one.';

export const ZDR_MODEL_MESSAGE =
  'An extract sends page text to a model, which zero data retention allows only for a model marked local (LLM_IS_LOCAL), and this server’s is not.';

/** Why a worker may use no model for the extract (its settings differ from the gateway's, which checked). */
export function noModelReason(llm: LlmServiceSettings): string {
  return configuredLlm(llm) ? ZDR_MODEL_MESSAGE : NO_MODEL_MESSAGE;
}

/** Throws the 400 of an extract this server cannot run. */
export function checkExtractModel(llm: LlmServiceSettings, zeroDataRetention: boolean): void {
  if (!configuredLlm(llm)) throw new DomainError('invalid', NO_MODEL_MESSAGE, 'MODEL_NOT_CONFIGURED');
  if (!jobModel(llm, zeroDataRetention)) throw new DomainError('invalid', ZDR_MODEL_MESSAGE, 'MODEL_NOT_LOCAL');
}
