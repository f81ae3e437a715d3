// The extract's signed webhook events (extract.started, extract.completed,
// extract.failed), sent from an activity on the webhook task queue with Temporal's
// retries: the crawl outbox belongs to a crawl row, and an extract has none of its
// own. Signed as crawl events are (send-webhook.ts, X-Service-Signature with the
// team's secret); each event's webhookId derives from the extract and the event, so
// every attempt sends the same id.
import { ApplicationFailure } from '@temporalio/activity';
import { v5 as uuidv5 } from 'uuid';
import type { ActivityDeps } from '../../platform/temporal/activity-deps.ts';
import { addressPolicyOf } from '../../platform/net/service-endpoints.ts';
import { sendWebhook } from '../../jobs/webhooks/send-webhook.ts';
import type { ExtractEvent } from './definitions.ts';
import type { ExtractRequest } from './extract-request.ts';
import { extractAnswer } from './extract-answer.ts';
import type { ExtractFeatureSettings } from './config.ts';

const EVENT_NAMESPACE = '9a4e2b7c-1f3d-4c8a-b6e5-7d2f0a9c3e61';

export function createExtractNotificationActivities({ db, config, log }: ActivityDeps<ExtractFeatureSettings>) {
  const policy = addressPolicyOf(config);
  return {
    /** Sends one event; a receiver that should be asked again (5xx, 429, no answer) makes the activity retry. */
    async notifyExtract(input: { extractId: string; event: ExtractEvent }): Promise<void> {
      const extract = await db.extractJob.findUnique({ where: { id: input.extractId }, include: { team: { select: { webhookSigningSecret: true } } } });
      const webhook = (extract?.options as ExtractRequest | undefined)?.webhook;
      if (!extract || !webhook || !webhook.events.includes(input.event)) return;
      const webhookId = uuidv5(`${extract.id}/${input.event}`, EVENT_NAMESPACE);
      // Under zero data retention the data is handed out once, by GET: events carry the rest.
      const { data: _data, sources: _sources, ...withoutData } = extractAnswer(extract);
      const answer = (extract.options as ExtractRequest).zeroDataRetention ? withoutData : extractAnswer(extract);
      const payload = {
        success: input.event !== 'failed',
        type: `extract.${input.event}`,
        id: extract.id,
        webhookId,
        data: input.event === 'started' ? [] : [answer],
        metadata: webhook.metadata,
        ...(extract.error && input.event === 'failed' && { error: extract.error }),
      };
      const result = await sendWebhook({
        url: webhook.url,
        body: JSON.stringify(payload),
        headers: webhook.headers,
        secret: extract.team.webhookSigningSecret,
        timeoutMs: config.webhooks.timeoutMs,
        policy,
      });
      if (result.outcome === 'retry')
        throw ApplicationFailure.retryable(`extract webhook not delivered yet: ${result.error ?? `HTTP ${result.statusCode}`}`, 'WebhookRetry');
      if (result.outcome === 'final')
        log.warn('extract webhook refused', { extractId: extract.id, webhookId, statusCode: result.statusCode, error: result.error });
    },
  };
}
