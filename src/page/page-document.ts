// Turns what a page load produced (from the browser, the PDF parser or the
// cache) into the stored document and the links it offers for discovery.
import { clientOptionWarnings, type ScrapeOptions } from './scrape-options.ts';
import type { DocumentFormat, PageDocument } from './document-schema.ts';
import {
  convertInline,
  requestedFormats,
  type HtmlConversion,
  type HtmlConversionInput,
  type HtmlConverter,
  type HtmlOutcome,
} from './conversion/html-conversion.ts';
import { summarizePage } from './summary/page-summary.ts';
import { addUsage, NO_TOKENS, type LlmSettings, type TokenUsage } from '../platform/llm/chat-completion.ts';
import type { BilledModelFormat } from './model-formats/format-names.ts';
import { runModelFormats } from './model-formats/run-model-formats.ts';
import { runProfileFormats } from './profiles/run-profile-formats.ts';
import { deriveBranding } from './branding/derive-branding.ts';
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
  answered: BilledModelFormat[];
}

export type DocumentOutcome = (HtmlConversion & { modelUse: ModelUse }) | Exclude<HtmlOutcome, HtmlConversion>;

/** A PDF's, an image's (OCR) or an uploaded text file's document: its text is all it has, no links, no images. */
function fileDocument(load: PageLoad, file: { markdown: string; html: string }, formats: Set<DocumentFormat>, sourceURL: string): PageDocument {
  const { pdf } = load;
  return {
    ...(formats.has('markdown') && { markdown: file.markdown }),
    ...(formats.has('html') && { html: file.html }),
    ...(formats.has('rawHtml') && { rawHtml: file.html }),
    ...(formats.has('links') && { links: [] }),
    ...(formats.has('images') && { images: [] }),
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
  const formats = requestedFormats(so);
  const warnings = clientOptionWarnings(so);
  const unscanned = unscannedWarning(threatPolicy(so.threatProtection));
  if (unscanned) warnings.push(unscanned);
  let converted: HtmlConversion;
  const file = load.pdf ?? load.text;
  if (file) {
    converted = {
      built: {
        document: fileDocument(load, file, new Set(formats), extras.sourceURL),
        discoveredLinks: [],
        markdown: file.markdown,
      },
    };
    if (load.pdf?.warnings) warnings.push(...load.pdf.warnings);
    if (formats.includes('branding'))
      warnings.push(`No branding: the URL is ${/^image\//i.test(load.contentType ?? '') ? 'an image' : 'a PDF'}, not a web page.`);
  } else {
    const { screenshot, branding, ...html } = load;
    const { indexAs, checkScripted, listImages } = extras;
    const outcome = await (extras.convert ?? convertInline)({ load: html, so, sourceURL: extras.sourceURL, indexAs, checkScripted, listImages });
    if ('needsBrowser' in outcome) return outcome;
    converted = outcome;
    // Kept out of the conversion: a screenshot is large and needs no work.
    if (formats.includes('screenshot') && screenshot !== undefined) converted.built.document.screenshot = screenshot;
    if (formats.includes('branding')) {
      if (branding && !('error' in branding)) converted.built.document.branding = deriveBranding(branding);
      else warnings.push(`No branding: ${branding?.error ?? 'the page was not rendered in a browser'}.`);
    }
  }
  const { built } = converted;
  const { document } = built;
  const modelUse: ModelUse = { usage: NO_TOKENS, answered: [] };
  if (formats.includes('summary')) {
    const { summary, warning, usage } = await summarizePage({ markdown: built.markdown ?? '', language: document.metadata.language }, extras.llm);
    document.summary = summary;
    if (warning) warnings.push(warning);
    modelUse.usage = addUsage(modelUse.usage, usage);
  }
  const text = built.markdown ?? '';
  const [model, profiles] = await Promise.all([
    runModelFormats(so.formats, text, extras.llm),
    runProfileFormats(formats, built.profiles, { text, url: document.metadata.url, metadata: document.metadata, llm: extras.llm }),
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
