import { z } from 'zod';
import { httpUrl } from '../../platform/http/common-schemas.ts';
import { headerMapSchema } from '../../platform/http/header-fields.ts';
import { nestedAtMost } from '../../platform/json-depth.ts';

/**
 * Webhook configuration of a crawl: a bare URL string (normalised to `{url}`) or a strict object.
 * The output always carries headers, metadata and events with their defaults applied.
 */

export const WEBHOOK_EVENTS = ['started', 'page', 'completed', 'failed'] as const;
export type WebhookEventName = (typeof WEBHOOK_EVENTS)[number];

/** Header names (lower case) the caller may not set: the service signs deliveries with them. */
export const RESERVED_WEBHOOK_HEADERS = ['x-service-signature'] as const;

const webhookHeadersSchema = headerMapSchema(RESERVED_WEBHOOK_HEADERS).default(() => ({}));

/** Deeper metadata would overflow the stack of the recursive JSON schema (and of every serializer after it). */
export const MAX_METADATA_DEPTH = 32;

const metadataSchema = nestedAtMost('webhook.metadata', MAX_METADATA_DEPTH).pipe(z.record(z.string(), z.json()));

/** A webhook configuration whose `events` filter takes `events` (all of them by default). */
export function webhookSchemaWith<const Events extends readonly [string, ...string[]]>(events: Events) {
  const objectSchema = z.strictObject(
    {
      url: httpUrl,
      headers: webhookHeadersSchema,
      metadata: metadataSchema.default(() => ({})),
      // An empty list is what the SDKs' types allow for "no events": nothing is delivered.
      events: z
        .array(z.enum(events))
        .transform((list) => [...new Set(list)])
        .default(() => [...events]),
    },
    {
      error: (iss) => (iss.code === 'invalid_type' ? 'webhook must be a URL string or an object with a url' : undefined),
    },
  );
  return z.preprocess<unknown, typeof objectSchema, string | z.input<typeof objectSchema>>(
    (value: unknown) => (typeof value === 'string' ? { url: value } : value),
    objectSchema,
  );
}

export const webhookSchema = webhookSchemaWith(WEBHOOK_EVENTS);

export type WebhookInput = z.input<typeof webhookSchema>;

export type Webhook = z.output<typeof webhookSchema>;
