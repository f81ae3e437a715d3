// Every scrape format this service produces: one line adds one. The order is
// the order the generic code runs their hooks in (validation messages, the
// document's fields, the capture) and of the formats union's OpenAPI schema.
import type { z } from 'zod';
import type { FormatModule } from './format-module.ts';
import { markdownFormat } from './markdown/markdown-format.ts';
import { htmlFormat } from './html/html-format.ts';
import { rawHtmlFormat } from './raw-html/raw-html-format.ts';
import { linksFormat } from './links/links-format.ts';
import { imagesFormat } from './images/images-format.ts';
import { summaryFormat } from './summary/summary-format.ts';
import { screenshotFormat } from './screenshot/screenshot-format.ts';
import { jsonFormat } from './json/json-format.ts';
import { questionFormat } from './question/question-format.ts';
import { highlightsFormat } from './highlights/highlights-format.ts';
import { queryFormat } from './query/query-format.ts';
import { productFormat } from './product/product-format.ts';
import { menuFormat } from './menu/menu-format.ts';
import { attributesFormat } from './attributes/attributes-format.ts';
import { changeTrackingFormat } from './change-tracking/change-tracking-format.ts';
import { brandingFormat } from './branding/branding-format.ts';

export const FORMATS = [
  markdownFormat,
  htmlFormat,
  rawHtmlFormat,
  linksFormat,
  imagesFormat,
  summaryFormat,
  screenshotFormat,
  jsonFormat,
  questionFormat,
  highlightsFormat,
  queryFormat,
  productFormat,
  menuFormat,
  attributesFormat,
  changeTrackingFormat,
  brandingFormat,
] as const;

/** The registry as its hooks are called: each format's options typed by its own schema. */
export const MODULES: readonly FormatModule[] = FORMATS as readonly FormatModule[];

/** Format types this service produces. */
export type SupportedFormat = (typeof FORMATS)[number]['type'];
export const SUPPORTED_FORMATS: readonly SupportedFormat[] = FORMATS.map((f) => f.type);

/** A format as the request's options hold it, `{type, ...options}` with every default applied. */
export type ScrapeFormat = z.output<(typeof FORMATS)[number]['schema']>;

const BY_TYPE: ReadonlyMap<string, FormatModule> = new Map(MODULES.map((f) => [f.type, f]));

export function isSupportedFormat(type: string): type is SupportedFormat {
  return BY_TYPE.has(type);
}

/** The module of a format the request's options hold (validated, so it exists). */
export function formatModule(type: string): FormatModule {
  const module = BY_TYPE.get(type);
  if (!module) throw new Error(`Unknown format ${type}`);
  return module;
}

/** A requested format with its module. */
export interface Requested {
  module: FormatModule;
  format: ScrapeFormat;
}

/** The formats a request lists, each type once (its first listing), in the registry's order. */
export function requestedFormats(formats: readonly ScrapeFormat[]): Requested[] {
  return MODULES.flatMap((module) => {
    const format = formats.find((f) => f.type === module.type);
    return format ? [{ module, format }] : [];
  });
}
