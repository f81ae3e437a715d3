// The json, question, highlights and query formats of one page, once its text exists.
// They run at once; a format the model fails is left out of the document and
// named in its warning, so a model that is down or answers badly never fails a
// page. The tokens every call used are summed for the page's ledger row.
import { addUsage, LlmError, NO_TOKENS, type LlmSettings, type TokenUsage } from '../../platform/llm/chat-completion.ts';
import type { ScrapeFormat } from '../scrape-options.ts';
import { MODEL_FORMATS, type ModelFormat } from './format-names.ts';
import { answerQuestion } from './question-format.ts';
import { extractJson } from './json-format.ts';
import { pickHighlights } from './highlights-format.ts';
import { answerQuery } from './query-format.ts';

export interface ModelFields {
  json?: unknown;
  answer?: string;
  highlights?: string;
}

export interface ModelFormatsResult {
  fields: ModelFields;
  warnings: string[];
  usage: TokenUsage;
  /** The formats the model answered (the ones charged for). */
  answered: ModelFormat[];
}

type Outcome = { fields: ModelFields; usage: TokenUsage; warning?: string };

function produce(format: ScrapeFormat, text: string, llm: LlmSettings, fetchImpl?: typeof fetch): Promise<Outcome> {
  switch (format.type) {
    case 'json':
      return extractJson(text, format, llm, fetchImpl).then(({ value, usage }) => ({ fields: { json: value }, usage }));
    case 'question':
      return answerQuestion(text, format.question, llm, fetchImpl).then(({ answer, usage }) => ({ fields: { answer }, usage }));
    case 'query':
      return answerQuery(text, format, llm, fetchImpl).then(({ answer, usage, warning }) => ({ fields: { answer }, usage, warning }));
    case 'highlights':
      return pickHighlights(text, format, llm, fetchImpl).then(({ highlights, usage }) => ({ fields: { highlights }, usage }));
    default:
      throw new Error(`${format.type} is not a model format`);
  }
}

export function modelFormatsOf(formats: ScrapeFormat[]): ScrapeFormat[] {
  return formats.filter((f) => (MODEL_FORMATS as readonly string[]).includes(f.type));
}

/**
 * Runs the request's model formats on the page's text. `llm` is undefined when the job may use no
 * model (none configured, or zero data retention and the model is not local): each format is then
 * skipped with a warning (the request was checked when the job was made, so only a worker configured
 * differently from the gateway gets here).
 */
export async function runModelFormats(
  formats: ScrapeFormat[],
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
  const outcomes = await Promise.allSettled(wanted.map((f) => produce(f, text, llm, fetchImpl)));
  outcomes.forEach((outcome, i) => {
    const type = wanted[i]!.type as ModelFormat;
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
