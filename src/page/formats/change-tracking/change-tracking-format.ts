// The changeTracking format: the page's markdown (and with the json mode, fields
// a model extracts) compared against the team's previous snapshot of the URL
// under the same tag (docs/api/change-tracking.md). The comparison needs the
// stored snapshots, so the job engine runs it (jobs/batch/page-handler.ts, with
// change-tracking/track-change.ts); this module is what the request and the
// rest of the page know of it.
import { z } from 'zod';
import { MODEL_FORMAT_CREDITS } from '../../../platform/usage/credits.ts';
import { defineFormat } from '../format-module.ts';
import { jsonSchemaField, MAX_MODEL_PROMPT_CHARS } from '../format-schemas.ts';

export const CHANGE_TRACKING_NEEDS_MARKDOWN_MESSAGE = 'The changeTracking format requires the markdown format: pages are compared by their markdown';
export const CHANGE_TRACKING_LIMIT_MESSAGE = 'Only one changeTracking format is allowed';
export const CHANGE_TRACKING_MODES = ['git-diff', 'json'] as const;
export const MAX_CHANGE_TRACKING_TAG_CHARS = 256;
/** How the messages name the json mode, whose fields a model extracts. */
export const CHANGE_TRACKING_JSON_MODE = 'changeTracking (json mode)';

const schema = z.strictObject({
  type: z.literal('changeTracking'),
  modes: z.array(z.enum(CHANGE_TRACKING_MODES, { error: 'changeTracking modes are "git-diff" and "json"' })).default([]),
  // A JSON Schema for the json mode's fields; the SDKs convert a Zod schema to one before sending.
  schema: jsonSchemaField('json.schema').optional(),
  prompt: z.string().max(MAX_MODEL_PROMPT_CHARS).optional(),
  // null is what the Python SDK sends for "no tag".
  tag: z
    .string()
    .min(1)
    .max(MAX_CHANGE_TRACKING_TAG_CHARS)
    .nullish()
    .transform((t) => t ?? undefined),
});
export type ChangeTrackingFormat = z.output<typeof schema>;

/** The request's changeTracking format, if it has one. */
export function changeTrackingOf(so: { formats: readonly { type: string }[] }): ChangeTrackingFormat | undefined {
  return so.formats.find((f): f is ChangeTrackingFormat => f.type === 'changeTracking');
}

export const changeTrackingFormat = defineFormat({
  type: 'changeTracking',
  schema,
  once: CHANGE_TRACKING_LIMIT_MESSAGE,
  checkList(formats, ctx) {
    if (formats.some((f) => f.type === 'changeTracking') && !formats.some((f) => f.type === 'markdown')) {
      ctx.addIssue({ code: 'custom', message: CHANGE_TRACKING_NEEDS_MARKDOWN_MESSAGE, input: formats });
    }
  },
  unredactable: 'redactPII cannot be combined with the changeTracking format: its diff shows earlier snapshots of the page, which were not redacted',
  pageOnly: true,
  // A cached copy would compare a past version as the current one.
  bypassesCache: true,
  needsModel: (format) => (format.modes.includes('json') ? CHANGE_TRACKING_JSON_MODE : undefined),
  // When the model extracted the json mode's fields.
  answerCredits: MODEL_FORMAT_CREDITS,
  mostCredits: (format) => (format.modes.includes('json') ? MODEL_FORMAT_CREDITS : 0),
});
