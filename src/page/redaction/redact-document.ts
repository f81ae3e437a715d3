// redactPII on a built document (docs/api/redaction.md): which entities a request
// asks for and how they are found (patterns always, the model for PERSON and
// LOCATION in modes "accurate" and "aggressive"), then every text of the document
// the caller gets rewritten in the requested style. The page's URL fields, its
// status and the service's own warning are not page text and stay as they are.
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { NO_TOKENS, type LlmSettings, type TokenUsage } from '../../platform/llm/chat-completion.ts';
import { findPatternSpans, type PatternMode } from './pii-patterns.ts';
import { findNames, findWithModel, RedactionError, type ModelEntity } from './pii-model.ts';
import { PII_ENTITIES, replaceSpans, type PiiEntity, type ReplaceStyle } from './pii-spans.ts';
import { MODULES } from '../formats/registry.ts';

export type RedactPiiOption = boolean | { mode?: 'accurate' | 'aggressive' | 'fast'; entities?: PiiEntity[]; replaceStyle?: ReplaceStyle } | undefined;

export interface RedactionPlan {
  mode: 'accurate' | 'aggressive' | 'fast';
  /** Found by the patterns. */
  patternEntities: Set<PiiEntity>;
  /** Found by the model (none in mode fast). */
  modelEntities: ModelEntity[];
  replaceStyle: ReplaceStyle;
  /** Mode fast was asked for every entity: PERSON and LOCATION were not looked for. */
  skipped: ModelEntity[];
}

const MODEL_ENTITIES: readonly ModelEntity[] = ['PERSON', 'LOCATION'];

/** What `redactPII` asks for; undefined when it asks for nothing. */
export function redactionPlan(option: RedactPiiOption): RedactionPlan | undefined {
  if (option === undefined || option === false) return undefined;
  const { mode = 'accurate', entities, replaceStyle = 'tag' } = option === true ? {} : option;
  const wanted = new Set<PiiEntity>(entities ?? PII_ENTITIES);
  const byModel = MODEL_ENTITIES.filter((e) => wanted.has(e));
  return {
    mode,
    patternEntities: new Set([...wanted].filter((e) => !MODEL_ENTITIES.includes(e as ModelEntity))),
    modelEntities: mode === 'fast' ? [] : byModel,
    replaceStyle,
    // Only by default: mode fast with PERSON or LOCATION named is a 400 (scrape-options.ts).
    skipped: mode === 'fast' ? byModel : [],
  };
}

/** The entities of `option` only a model finds; empty when none are asked for. */
export function redactionModelEntities(option: RedactPiiOption): ModelEntity[] {
  return redactionPlan(option)?.modelEntities ?? [];
}

/** Said on each redacted page when mode fast left the model's entities out. */
export function skippedWarning(plan: RedactionPlan): string | undefined {
  if (plan.skipped.length === 0) return undefined;
  return `redactPII: mode "fast" finds ${[...plan.patternEntities].join(', ')} by pattern only; ${plan.skipped.join(' and ')} need the model (mode "accurate" or "aggressive") and were not redacted.`;
}

/** Metadata fields that are not page text: the URLs the caller asked for and reached, ids, numbers, the failure. */
const METADATA_KEPT = new Set([
  'sourceURL',
  'url',
  'scrapeId',
  'statusCode',
  'contentType',
  'error',
  'numPages',
  'concurrencyLimited',
  'concurrencyQueueDurationMs',
  'proxyUsed',
  'cacheState',
  'cachedAt',
  'creditsUsed',
]);
/**
 * Document fields that are not page text: the service's own warning, and the fields of the formats
 * that are refused with redactPII (a screenshot, change tracking: each fills the field named as it).
 */
const DOCUMENT_KEPT = new Set(['warning', ...MODULES.filter((m) => m.unredactable !== undefined).map((m) => m.type)]);
/** Fields holding HTML, where a tag is written escaped. */
const HTML_FIELDS = new Set(['html', 'rawHtml']);

interface TextSlot {
  text: string;
  html: boolean;
  set(value: string): void;
}

/** Every string of the document that is page text, with where it goes back. */
function textSlots(document: Record<string, unknown>): TextSlot[] {
  const slots: TextSlot[] = [];
  const visit = (holder: Record<string, unknown> | unknown[], key: string | number, html: boolean) => {
    const value = (holder as Record<string | number, unknown>)[key];
    if (typeof value === 'string') {
      slots.push({ text: value, html, set: (v) => ((holder as Record<string | number, unknown>)[key] = v) });
    } else if (Array.isArray(value)) {
      value.forEach((_, i) => visit(value, i, html));
    } else if (value !== null && typeof value === 'object') {
      const object = value as Record<string, unknown>;
      for (const k of Object.keys(object)) visit(object, k, html || HTML_FIELDS.has(k));
    }
  };
  for (const key of Object.keys(document)) {
    if (DOCUMENT_KEPT.has(key)) continue;
    if (key === 'metadata') {
      const metadata = document.metadata as Record<string, unknown>;
      for (const k of Object.keys(metadata)) if (!METADATA_KEPT.has(k)) visit(metadata, k, false);
      continue;
    }
    visit(document, key, HTML_FIELDS.has(key));
  }
  return slots;
}

/** Readable text of HTML for the model: tags, scripts and styles out, the common entities decoded. Linear in the HTML. */
export function htmlText(html: string): string {
  const lower = html.toLowerCase().length === html.length ? html.toLowerCase() : html;
  const out: string[] = [];
  let at = 0;
  while (at < html.length) {
    const open = html.indexOf('<', at);
    if (open === -1) {
      out.push(html.slice(at));
      break;
    }
    out.push(html.slice(at, open), ' ');
    let close = html.indexOf('>', open);
    if (close === -1) break;
    const skipped = ['script', 'style'].find((tag) => lower.startsWith(tag, open + 1));
    if (skipped) {
      const end = lower.indexOf(`</${skipped}`, close);
      const endClose = end === -1 ? -1 : html.indexOf('>', end);
      close = endClose === -1 ? html.length : endClose;
    }
    at = close + 1;
  }
  return out
    .join('')
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ' })[e]!)
    .replace(/\s+/g, ' ');
}

export interface RedactionDeps {
  /** The model the job may use; none: a plan that needs one fails. */
  llm?: LlmSettings;
  /** Most chunks of LLM_MAX_INPUT_CHARS the model reads for one page (REDACT_PII_MAX_MODEL_CHUNKS). */
  maxModelChunks: number;
}

/**
 * Rewrites the document's page text in place; returns the model's tokens. Throws RedactionError
 * when the model is needed and cannot be used: the page then fails, never handed out unredacted.
 */
export async function redactDocument(document: Record<string, unknown>, plan: RedactionPlan, deps: RedactionDeps): Promise<TokenUsage> {
  const slots = textSlots(document);
  let names = new Map<string, ModelEntity>();
  let usage = NO_TOKENS;
  if (plan.modelEntities.length > 0) {
    if (!deps.llm) {
      throw new RedactionError(
        `${plan.modelEntities.join(' and ')} need a model and none may read this page (LLM_BASE_URL unset, or zero data retention with a model not marked LLM_IS_LOCAL)`,
      );
    }
    // The page's text once: the plain fields, and the readable text of its HTML (the raw page holds everything the cleaned one does).
    const plain = slots.filter((s) => !s.html).map((s) => s.text);
    const html = (document.rawHtml ?? document.html) as string | undefined;
    const text = [...plain, ...(typeof html === 'string' ? [htmlText(html)] : [])].join('\n\n');
    const findings = await findWithModel(text, plan.modelEntities, { llm: deps.llm, maxChunks: deps.maxModelChunks, aggressive: plan.mode === 'aggressive' });
    names = findings.found;
    usage = findings.usage;
  }
  const patternMode: PatternMode = plan.mode === 'aggressive' ? 'aggressive' : 'accurate';
  for (const slot of slots) {
    const spans = findPatternSpans(slot.text, plan.patternEntities, patternMode);
    if (names.size > 0) spans.push(...findNames(slot.text, names, plan.mode === 'aggressive', slot.html));
    if (spans.length > 0) slot.set(replaceSpans(slot.text, spans, plan.replaceStyle, slot.html));
    // A page's texts can be megabytes: other batches and heartbeats go on between them.
    if (slot.text.length > 100_000) await yieldToEventLoop();
  }
  return usage;
}

export { RedactionError };
