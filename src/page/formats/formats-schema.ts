// The `formats` option of scrapeOptions, made of the registry's schemas: each
// item a format name (or an alias such as screenshot@fullPage) or an object
// with a `type`, normalised to the object; then each format's own limits.
import { z } from 'zod';
import { FORMATS, isSupportedFormat, MODULES, type ScrapeFormat } from './registry.ts';

/**
 * Formats of the SDKs' FormatOption types that this service does not produce, with the reason the
 * 400 gives: a format the caller asked for is never silently left out of the document.
 */
export const UNAVAILABLE_FORMATS: Readonly<Record<string, string>> = {
  audio: "it downloads and transcodes a page's media through a Firecrawl cloud service, which this service does not offer",
  video: "it downloads and transcodes a page's media through a Firecrawl cloud service, which this service does not offer",
};

const ALIASES: ReadonlyMap<string, Record<string, unknown>> = new Map(
  MODULES.flatMap((f) => Object.entries(f.aliases ?? {}).map(([name, options]) => [name, { type: f.type, ...options }] as const)),
);

/** Format names accepted in their string form. */
export const FORMAT_NAMES: readonly string[] = [...FORMATS.map((f) => f.type), ...ALIASES.keys()];

export function unsupportedFormatMessage(name: string): string {
  const why = Object.hasOwn(UNAVAILABLE_FORMATS, name) ? UNAVAILABLE_FORMATS[name] : undefined;
  return why ? `Format "${name}" is not available from this service: ${why}` : `Format "${name}" is not supported by this service`;
}

type Schemas<M extends readonly { schema: z.ZodType }[]> = { -readonly [K in keyof M]: M[K]['schema'] };

const formatObjectSchema = z.discriminatedUnion('type', FORMATS.map((f) => f.schema) as Schemas<typeof FORMATS>, {
  error: (iss) =>
    iss.code === 'invalid_union' || (iss.code as string) === 'invalid_type'
      ? 'Invalid format: expected a format name or an object with a "type" field'
      : undefined,
});

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Strings become `{type}` objects (`screenshot@fullPage` → `{type:'screenshot', fullPage:true}`);
 * any other Firecrawl format name (audio, video, rawBase64, …) is reported here, at the
 * path of the item, so the message names the format.
 */
const formatItemSchema = z.preprocess<unknown, typeof formatObjectSchema, string | z.input<typeof formatObjectSchema>>((value: unknown, ctx) => {
  let name: string;
  if (typeof value === 'string') {
    const alias = ALIASES.get(value);
    if (alias) return alias;
    if (isSupportedFormat(value)) return { type: value };
    name = value;
  } else if (isRecord(value) && typeof value.type === 'string') {
    if (isSupportedFormat(value.type)) return value;
    name = value.type;
  } else {
    return value; // the object schema reports the shape problem
  }
  ctx.issues.push({ code: 'custom', message: unsupportedFormatMessage(name), input: value });
  return z.NEVER;
}, formatObjectSchema);

function checkList(formats: ScrapeFormat[], ctx: z.RefinementCtx): void {
  for (const module of MODULES) {
    if (module.once !== undefined && formats.filter((f) => f.type === module.type).length > 1)
      ctx.addIssue({ code: 'custom', message: module.once, input: formats });
    module.checkList?.(formats, ctx);
  }
}

export const formatsSchema = z.array(formatItemSchema).superRefine(checkList).prefault(['markdown']);
