// The model formats of one page (json, question, highlights, query: a format
// module with `model`), once its text exists.
// They run at once; a format the model fails is left out of the document and
// named in its warning, so a model that is down or answers badly never fails a
// page. The tokens every call used are summed for the page's ledger row.
import { addUsage, LlmError, NO_TOKENS, type LlmSettings, type TokenUsage } from '../../platform/llm/chat-completion.ts';
import type { DocumentPart } from '../formats/format-module.ts';
import { formatModule, type ScrapeFormat } from '../formats/registry.ts';

export interface ModelFormatsResult {
  fields: DocumentPart;
  warnings: string[];
  usage: TokenUsage;
  /** The formats the model answered (the ones charged for). */
  answered: string[];
}

/** The request's model formats (a format module with `model`), in request order. */
export function modelFormatsOf(formats: readonly ScrapeFormat[]): ScrapeFormat[] {
  return formats.filter((f) => formatModule(f.type).model);
}

/**
 * Runs the request's model formats on the page's text. `llm` is undefined when the job may use no
 * model (none configured, or zero data retention and the model is not local): each format is then
 * skipped with a warning (the request was checked when the job was made, so only a worker configured
 * differently from the gateway gets here).
 */
export async function runModelFormats(
  formats: readonly ScrapeFormat[],
  text: string,
  llm: LlmSettings | undefined,
  fetchImpl?: typeof fetch,
): Promise<ModelFormatsResult> {
  const result: ModelFormatsResult = { fields: {}, warnings: [], usage: NO_TOKENS, answered: [] };
  const wanted = modelFormatsOf(formats);
  if (wanted.length === 0) return result;
  if (!llm) {
    result.warnings.push(
      `The ${wanted.map((f) => f.type).join(', ')} format(s) were not produced: this worker may use no model for this job (LLM_BASE_URL; LLM_IS_LOCAL under zero data retention).`,
    );
    return result;
  }
  if (text.trim() === '') {
    result.warnings.push(`The ${wanted.map((f) => f.type).join(', ')} format(s) were not produced: the page has no text.`);
    return result;
  }
  const outcomes = await Promise.allSettled(wanted.map((f) => formatModule(f.type).model!.produce(text, f, llm, fetchImpl)));
  outcomes.forEach((outcome, i) => {
    const { type } = wanted[i]!;
    if (outcome.status === 'fulfilled') {
      Object.assign(result.fields, outcome.value.fields);
      if (outcome.value.warning) result.warnings.push(outcome.value.warning);
      result.usage = addUsage(result.usage, outcome.value.usage);
      result.answered.push(type);
      return;
    }
    const err = outcome.reason;
    if (!(err instanceof LlmError)) throw err;
    result.usage = addUsage(result.usage, err.usage);
    result.warnings.push(`The ${type} format was not produced: ${err.message}.`);
  });
  return result;
}
