// What one scrape format is, in one place: its request schema and limits, what
// it needs and captures from the loaded page, how it builds its part of the
// document, its part of the page cache key and its cost. Every hook is
// optional: a format has the ones it needs, and the generic code (validation,
// rendering, capture, conversion, cache, billing) runs them for the formats a
// request lists, in the registry's order (registry.ts).
import type { z } from 'zod';
import type { Page } from 'playwright';
import type { LlmSettings, TokenUsage } from '../../platform/llm/chat-completion.ts';
import type { PageDocument, PageMetadata } from '../document-schema.ts';
import type { PageBudget } from '../page-budget.ts';
import type { PageLoad } from '../page-load.ts';
import type { ProfileOutcome, ProfilePage } from '../profiles/profile-page.ts';
import type { StructuredData } from '../structured-data/read-structured-data.ts';

export type DocumentPart = Partial<Omit<PageDocument, 'metadata'>>;

/** What the conversion gives the formats once the page is cleaned. */
export interface ConvertedPage {
  rawHtml: string;
  /** The page's links; a format that keeps them keeps a copy. */
  links: readonly string[];
  /** The cleaned tree, when a requested format `needs` it. */
  cleaned?: Element;
  /** The cleaned page's markdown, when a requested format `needs` it. */
  markdown?: string;
}

/** A page without HTML: a PDF, an image read by OCR, an uploaded text file. */
export interface FilePage {
  markdown: string;
  html: string;
}

/** A format's answer from the page's text: its fields, a warning, the model tokens it used. */
export interface TextAnswer {
  fields: DocumentPart;
  usage: TokenUsage;
  warning?: string;
}

export interface TextPage {
  text: string;
  metadata: PageMetadata;
  /** The model the job may use, if any. */
  llm?: LlmSettings;
}

export interface FormatModule<T extends string = string, S extends z.ZodType = z.ZodType> {
  type: T;
  /** The object form, `{type, ...options}`; the string form `type` is `{type}`. */
  schema: S;
  /** String forms besides `type`, and the options each stands for. */
  aliases?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** The 400 when a request lists the format twice (unset: it may). */
  once?: string;
  /** Rules between the format and the request's other formats (`formats` in request order). */
  checkList?(formats: readonly { type: string }[], ctx: z.RefinementCtx): void;
  /** The 400 when it is asked for with redactPII (it shows what cannot be redacted). */
  unredactable?: string;
  /** It needs a web page: POST /v2/parse refuses it for uploads. */
  pageOnly?: true;
  /** A cached load cannot serve it: a request with it always loads the page. */
  bypassesCache?: true;
  /** A note for the document about how the request asked for it. */
  warning?(format: z.output<S>): string | undefined;
  /** Why a request with it needs a browser (the reason needs-browser.ts gives). */
  needsBrowser?: string;
  /** Read from the rendered page into the load (which the page cache keeps), after its HTML. */
  capture?: {
    /** After every other capture: it may re-layout the page. */
    last?: true;
    run(page: Page, format: z.output<S>, budget: PageBudget): Promise<Partial<PageLoad>>;
  };
  /** Its part of the page cache key: it changes what the browser captures. */
  cacheKey?: {
    value(format: z.output<S>): unknown;
    /**
     * Held by every key (null without the format), right after the URL: the key's shape before formats
     * added parts. A new format's part is added at the end and only when asked for, so that the keys of
     * every other request, and the cached pages they point at, stay what they were.
     */
    alwaysInKey?: true;
  };
  /** Reads the parsed page before it is cleaned (cleaning removes elements in place). */
  fromParsed?(parsed: Document, format: z.output<S>, pageUrl: string): DocumentPart;
  /** What the conversion must make for it: the cleaned tree, the markdown, or the page's text for a later step (`fromText`, `model`, `profile`). */
  needs?: 'cleaned' | 'markdown' | 'text';
  fromPage?(page: ConvertedPage, format: z.output<S>): DocumentPart;
  fromFile?(file: FilePage, format: z.output<S>): DocumentPart;
  /** After the conversion, from what the load captured (HTML pages and files alike). */
  fromLoad?(load: PageLoad, format: z.output<S>): { fields?: DocumentPart; warning?: string };
  /** After the conversion, from the page's text, before the model and profile formats. */
  fromText?(page: TextPage, format: z.output<S>): Promise<TextAnswer>;
  /** Written by a model from the page's text: refused without one, skipped with a warning when none may be used. */
  model?: {
    produce(text: string, format: z.output<S>, llm: LlmSettings, fetchImpl?: typeof fetch): Promise<TextAnswer>;
  };
  /** Read from the page's schema.org data (a draft made in the conversion), a model filling what it leaves out. */
  profile?: {
    draft(data: StructuredData, pageUrl: string): unknown;
    run(draft: unknown, page: ProfilePage): Promise<ProfileOutcome<unknown>>;
  };
  /** How the 400 names it when the request needs a model for it and the server has none usable. */
  needsModel?(format: z.output<S>): string | undefined;
  /** Credits a model answer for it adds to the page. */
  answerCredits?: number;
  /** Most credits it adds to a page (estimates); answerCredits when unset. */
  mostCredits?(format: z.output<S>): number;
}

/** A format module, typed by its schema. */
export function defineFormat<const T extends string, S extends z.ZodType<{ type: T }>>(module: FormatModule<T, S>): FormatModule<T, S> {
  return module;
}
