// Bodies and query strings of the /v2/browser routes (also served as /v2/interact).
import { z } from 'zod';
import { integration, origin } from '../../../platform/http/common-schemas.ts';
import { locationSchema, PROXY_MODES } from '../../../page/scrape-options.ts';

export const MIN_TTL_SECONDS = 30;
export const MAX_TTL_SECONDS = 3600;
export const DEFAULT_TTL_SECONDS = 600;
export const MIN_ACTIVITY_TTL_SECONDS = 10;
export const DEFAULT_ACTIVITY_TTL_SECONDS = 300;

const seconds = (name: string, min: number, max: number, fallback: number) =>
  z
    .int({ error: `${name} must be an integer number of seconds` })
    .min(min, `${name} must be at least ${min} seconds`)
    .max(max, `${name} must be at most ${max} seconds`)
    .default(fallback);

const profileName = z
  .string({ error: 'profile.name must be a string' })
  .min(1, 'profile.name must not be empty')
  .max(128, 'profile.name must be at most 128 characters')
  .describe('Sessions with the same name share cookies, localStorage and IndexedDB.');

/** The name in DELETE /v2/browser/profiles/{name}. */
export const profileNameSchema = z.object({ name: profileName });

export const profileSchema = z.strictObject({
  name: profileName,
  saveChanges: z.boolean({ error: 'profile.saveChanges must be true or false' }).default(true).describe('Save the state at close (one writer at a time).'),
});

/** Body of POST /v2/browser; unknown fields pass, as upstream's schema is not strict. */
export const createSessionSchema = z.object({
  ttl: seconds('ttl', MIN_TTL_SECONDS, MAX_TTL_SECONDS, DEFAULT_TTL_SECONDS).describe('Total lifetime in seconds.'),
  activityTtl: seconds('activityTtl', MIN_ACTIVITY_TTL_SECONDS, MAX_TTL_SECONDS, DEFAULT_ACTIVITY_TTL_SECONDS).describe(
    'Seconds without use before the session ends.',
  ),
  streamWebView: z.boolean({ error: 'streamWebView must be true or false' }).default(true).describe('Whether live view URLs are made.'),
  profile: profileSchema.optional(),
  recordSession: z.boolean({ error: 'recordSession must be true or false' }).optional().describe('Accepted; sessions are not recorded.'),
  blockAds: z
    .boolean({ error: 'blockAds must be true or false' })
    .default(true)
    .describe("Whether the browser's requests to well-known ad and tracker hosts are refused (as a scrape's blockAds)."),
  location: locationSchema
    .optional()
    .describe(
      "Browse as from this country: Accept-Language, navigator.languages and the time zone are the country's (or `languages`); with proxy pools tagged with countries, the browser also goes through one of that country's (a 400 when none is).",
    ),
  proxy: z
    .enum(PROXY_MODES, { error: `proxy must be one of ${PROXY_MODES.join(', ')}` })
    .default('basic')
    .describe(
      'Which proxy tier the browser goes through when proxy pools are configured: basic the base tier, stealth and enhanced theirs; auto starts at the base tier.',
    ),
  origin,
  integration,
});

export type CreateSessionRequest = z.output<typeof createSessionSchema>;

export const SESSION_LIST_STATUSES = ['active', 'destroyed', 'error'] as const;

export const listSessionsQuerySchema = z.object({
  status: z.enum(SESSION_LIST_STATUSES, { error: `status must be one of ${SESSION_LIST_STATUSES.join(', ')}` }).optional(),
});
