// The attributes format: per CSS selector, an attribute's values on the
// matching elements of the page, read before cleaning (attribute-values.ts).
import { z } from 'zod';
import { attributeValues } from '../../attribute-values.ts';
import { assertValidSelectors, InvalidSelectorError } from '../../clean-html.ts';
import { defineFormat } from '../format-module.ts';

export const ATTRIBUTES_FORMAT_LIMIT_MESSAGE = 'Only one attributes format is allowed; list every selector in it';

/** Selectors one attributes format may list. */
export const MAX_ATTRIBUTE_SELECTORS = 50;

export const ATTRIBUTES_WITHOUT_SELECTORS_WARNING =
  'attributes: the format came without selectors, so no values were read. (The Python SDK 4.54 drops the selectors of an AttributesFormat object inside scrape options: pass the format as a dict.)';

// Checked here, with the parser the values are read with, so a selector it cannot run is a 400 before any job exists.
const cssSelectorSchema = z
  .string()
  .max(1000)
  .superRefine((selector, ctx) => {
    try {
      assertValidSelectors([selector]);
    } catch (err) {
      if (!(err instanceof InvalidSelectorError)) throw err;
      ctx.addIssue({ code: 'custom', message: err.message, input: selector });
    }
  });

// Without selectors (the SDKs' types allow "attributes" as a bare format name) nothing is read, and the warning says so.
const schema = z.strictObject({
  type: z.literal('attributes'),
  selectors: z
    .array(z.strictObject({ selector: cssSelectorSchema, attribute: z.string().min(1).max(256) }), {
      error: 'The attributes format takes selectors: [{selector, attribute}, ...]',
    })
    .max(MAX_ATTRIBUTE_SELECTORS, `The attributes format takes at most ${MAX_ATTRIBUTE_SELECTORS} selectors`)
    .default(() => []),
});
export type AttributeSelector = z.output<typeof schema>['selectors'][number];

export const attributesFormat = defineFormat({
  type: 'attributes',
  schema,
  once: ATTRIBUTES_FORMAT_LIMIT_MESSAGE,
  warning: (format) => (format.selectors.length === 0 ? ATTRIBUTES_WITHOUT_SELECTORS_WARNING : undefined),
  fromParsed: (parsed, format) => ({ attributes: attributeValues(parsed, format.selectors) }),
});
