// Turns what a page load produced (from the browser, the PDF parser or the
// cache) into the stored document and the links it offers for discovery.
import { clientOptionWarnings, type ScrapeOptions } from './scrape-options.ts';
import type { PageDocument } from './document-schema.ts';
import { convertInline, type HtmlConversion, type HtmlConversionInput, type HtmlConverter, type HtmlOutcome } from './conversion/html-conversion.ts';
import { addUsage, NO_TOKENS, type LlmSettings, type TokenUsage } from '../platform/llm/chat-completion.ts';
import { runModelFormats } from './model-formats/run-model-formats.ts';
import { runProfileFormats } from './profiles/run-profile-formats.ts';
import { requestedFormats, type Requested } from './formats/registry.ts';
import type { FilePage } from './formats/format-module.ts';
import type { PageLoad } from './page-load.ts';
import { redactDocument, redactionPlan, skippedWarning } from './redaction/redact-document.ts';
import { threatPolicy, unscannedWarning } from './threat-policy.ts';

/** `checkScripted`, `listImages`: see HtmlConversionInput (a page fetched over HTTP). */
export interface LoadExtras extends Pick<HtmlConversionInput, 'checkScripted' | 'listImages'> {
  sourceURL: string;
  /** Results of scrapeOptions.actions, when there were any. */
  actions?: unknown;
  /** Set when the page waited for a slot of the team's concurrency limit. */
  queuedMs?: number;
  /** The page's URL key when it is to be indexed for search (HTML pages; a PDF's entry is the caller's). */
  indexAs?: string;
  /** Where HTML is converted (a conversion thread); inline when unset. */
  convert?: HtmlConverter;
  /**
   * The model the job may use (LLM_BASE_URL; under zero data retention only one marked LLM_IS_LOCAL):
   * it writes the `summary` format, else extractive, the json, question, highlights and query formats,
   * and what the product and menu formats' structured data leaves out.
   */
  llm?: LlmSettings;
  /** redactPII: most chunks of the page's text the model reads (REDACT_PII_MAX_MODEL_CHUNKS). */
  redactMaxChunks?: number;
}

/** What the page's model calls used: tokens for the ledger, answered formats for the credits. */
export interface ModelUse {
  usage: TokenUsage;
  /** The types of the formats a model answered for. */
  answered: string[];
}

export type DocumentOutcome = (HtmlConversion & { modelUse: ModelUse }) | Exclude<HtmlOutcome, HtmlConversion>;

/** A PDF's, an image's (OCR) or an uploaded text file's document: its text is all it has, no links, no images. */
function fileDocument(load: PageLoad, file: FilePage, requested: readonly Requested[], sourceURL: string): PageDocument {
  const { pdf } = load;
  return {
    ...Object.assign({}, ...requested.map(({ module, format }) => module.fromFile?.(file, format))),
    ...(pdf?.pages && { pages: pdf.pages }),
    ...(pdf?.blocks && { blocks: pdf.blocks }),
    metadata: {
      ...pdf?.metadata,
      ...(pdf?.title !== undefined && { title: pdf.title }),
      ...(pdf && { numPages: pdf.numPages }),
      sourceURL,
      url: load.finalUrl,
      statusCode: load.statusCode,
      ...(load.contentType !== undefined && { contentType: load.contentType }),
    },
  };
}

export async function documentFromLoad(load: PageLoad, so: ScrapeOptions, extras: LoadExtras): Promise<DocumentOutcome> {
  const requested = requestedFormats(so.formats);
  const warnings = clientOptionWarnings(so);
  const unscanned = unscannedWarning(threatPolicy(so.threatProtection));
  if (unscanned) warnings.push(unscanned);
  let converted: HtmlConversion;
  const file = load.pdf ?? load.text;
  if (file) {
    converted = { built: { document: fileDocument(load, file, requested, extras.sourceURL), discoveredLinks: [], markdown: file.markdown } };
    if (load.pdf?.warnings) warnings.push(...load.pdf.warnings);
  } else {
    const { finalUrl, statusCode, contentType, rawHtml, imageSizes } = load;
    const { indexAs, checkScripted, listImages } = extras;
    const html = { finalUrl, statusCode, contentType, rawHtml, imageSizes };
    const outcome = await (extras.convert ?? convertInline)({ load: html, so, sourceURL: extras.sourceURL, indexAs, checkScripted, listImages });
    if ('needsBrowser' in outcome) return outcome;
    converted = outcome;
  }
  const { built } = converted;
  const { document } = built;
  for (const { module, format } of requested) {
    const part = module.fromLoad?.(load, format);
    if (part?.fields) Object.assign(document, part.fields);
    if (part?.warning) warnings.push(part.warning);
  }
  const modelUse: ModelUse = { usage: NO_TOKENS, answered: [] };
  const text = built.markdown ?? '';
  for (const { module, format } of requested) {
    if (!module.fromText) continue;
    const answer = await module.fromText({ text, metadata: document.metadata, llm: extras.llm }, format);
    Object.assign(document, answer.fields);
    if (answer.warning) warnings.push(answer.warning);
    modelUse.usage = addUsage(modelUse.usage, answer.usage);
  }
  const [model, profiles] = await Promise.all([
    runModelFormats(so.formats, text, extras.llm),
    runProfileFormats(so.formats, built.profiles, { text, url: document.metadata.url, metadata: document.metadata, llm: extras.llm }),
  ]);
  Object.assign(document, model.fields, profiles.fields);
  warnings.push(...model.warnings, ...profiles.warnings);
  modelUse.usage = addUsage(modelUse.usage, addUsage(model.usage, profiles.usage));
  modelUse.answered = [...model.answered, ...profiles.answered];
  if (extras.actions !== undefined) (document as PageDocument & { actions?: unknown }).actions = extras.actions;
  const redaction = redactionPlan(so.redactPII);
  if (redaction) {
    // Last, over every text the document holds (the model formats' answers too); throws RedactionError rather than leave any.
    const usage = await redactDocument(document as Record<string, unknown>, redaction, { llm: extras.llm, maxModelChunks: extras.redactMaxChunks ?? 8 });
    modelUse.usage = addUsage(modelUse.usage, usage);
    const skipped = skippedWarning(redaction);
    if (skipped) warnings.push(skipped);
  }
  if (warnings.length > 0) document.warning = warnings.join(' ');
  document.metadata.concurrencyLimited = extras.queuedMs !== undefined;
  if (extras.queuedMs !== undefined) document.metadata.concurrencyQueueDurationMs = extras.queuedMs;
  return { ...converted, modelUse };
}
