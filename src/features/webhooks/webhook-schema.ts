import { z } from 'zod';
import { httpUrl } from '../../platform/http/common-schemas.ts';

/**
 * Webhook configuration of a crawl: a bare URL string (normalised to `{url}`) or a strict object.
 * The output always carries headers, metadata and events with their defaults applied.
 */

export const WEBHOOK_EVENTS = ['started', 'page', 'completed', 'failed'] as const;
export type WebhookEventName = (typeof WEBHOOK_EVENTS)[number];

/** Header names (lower case) the caller may not set: the service signs deliveries with them. */
export const RESERVED_WEBHOOK_HEADERS = ['x-service-signature'] as const;

const webhookHeadersSchema = z
  .record(z.string(), z.string())
  .superRefine((headers, ctx) => {
    const reserved: readonly string[] = RESERVED_WEBHOOK_HEADERS;
    const bad = [...new Set(Object.keys(headers).map((k) => k.toLowerCase()).filter((k) => reserved.includes(k)))];
    if (bad.length > 0) {
      ctx.addIssue({
        code: 'custom',
        message: `The following headers are not allowed: ${bad.join(', ')}`,
        input: headers,
      });
    }
  })
  .default(() => ({}));

const webhookObjectSchema = z.strictObject(
  {
    url: httpUrl,
    headers: webhookHeadersSchema,
    metadata: z.record(z.string(), z.json()).default(() => ({})),
    events: z
      .array(z.enum(WEBHOOK_EVENTS))
      .min(1, 'webhook.events must not be empty')
      .transform((events) => [...new Set(events)])
      .default(() => [...WEBHOOK_EVENTS]),
  },
  {
    error: (iss) =>
      iss.code === 'invalid_type' ? 'webhook must be a URL string or an object with a url' : undefined,
  },
);

export type WebhookInput = string | z.input<typeof webhookObjectSchema>;

export const webhookSchema = z.preprocess<unknown, typeof webhookObjectSchema, WebhookInput>(
  (value: unknown) => (typeof value === 'string' ? { url: value } : value),
  webhookObjectSchema,
);

export type Webhook = z.output<typeof webhookSchema>;
