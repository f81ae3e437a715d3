// What a check tells the monitor's owner when it ends: the signed webhook events
// (`monitor.page` for each page that is not the same, then `monitor.check.completed`),
// sent and signed as crawl events are (send-webhook.ts, X-Service-Signature with the
// team's secret), each with a webhookId derived from the check, so a retry after a
// crash sends the same ids. Email is accepted by the API and not sent by this service:
// the check's notificationStatus says so.
import { ApplicationFailure, Context } from '@temporalio/activity';
import { v5 as uuidv5 } from 'uuid';
import type { ActivityDeps } from '../../platform/temporal/activity-deps.ts';
import { addressPolicyOf } from '../../platform/net/service-endpoints.ts';
import { sendWebhook } from '../../jobs/webhooks/send-webhook.ts';
import type { MonitorWebhook } from './monitor-request.ts';
import { checkAnswer, checkPageAnswer } from './monitor-answers.ts';
import type { MonitorsFeatureSettings } from './config.ts';

const EVENT_NAMESPACE = '0b3c8f6e-2d4a-4f7b-a1e5-9c6d2e8f4b13';
/** Most monitor.page events one check sends; the completed event's summary counts them all. */
const MAX_PAGE_EVENTS = 1000;

export const EMAIL_NOT_DELIVERED = 'This service does not send email: the email notification settings are kept and nothing is sent.';

interface MonitorEvent {
  webhookId: string;
  body: string;
}

export function createCheckNotificationActivities({ db, config, log }: ActivityDeps<MonitorsFeatureSettings>) {
  const policy = addressPolicyOf(config);
  return {
    /** Sends the check's events; a receiver that should be asked again (5xx, 429, no answer) makes the activity retry. */
    async notifyMonitorCheck(input: { checkId: string }): Promise<void> {
      const check = await db.monitorCheck.findUnique({
        where: { id: input.checkId },
        include: { monitor: { include: { team: { select: { webhookSigningSecret: true } } } } },
      });
      // Deleted with its monitor: there is no one left to tell.
      if (!check) return;
      const { monitor } = check;
      const email = (monitor.notification as { email?: { enabled?: boolean } } | null)?.email;
      const webhook = monitor.webhook as MonitorWebhook | null;
      const status: Record<string, unknown> = {
        ...(email && { email: { enabled: email.enabled ?? false, delivered: false, reason: EMAIL_NOT_DELIVERED } }),
      };
      if (webhook) {
        const wanted = new Set(webhook.events ?? ['monitor.page', 'monitor.check.completed']);
        const base = { id: monitor.id, checkId: check.id, metadata: webhook.metadata ?? {} };
        const events: MonitorEvent[] = [];
        // One signed event: its id is derived from what it reports, so a retried step sends the same ids.
        const addEvent = (type: string, idKey: string, success: boolean, data: unknown, error: string | null) => {
          const webhookId = uuidv5(idKey, EVENT_NAMESPACE);
          const payload = { success, type, ...base, webhookId, data: [data], ...(error && { error }) };
          events.push({ webhookId, body: JSON.stringify(payload) });
        };
        if (wanted.has('monitor.page')) {
          const pages = await db.monitorCheckPage.findMany({
            where: { checkId: check.id, status: { not: 'same' } },
            orderBy: { url: 'asc' },
            take: MAX_PAGE_EVENTS,
          });
          for (const page of pages) {
            addEvent('monitor.page', `${check.id}/page/${page.targetId}/${page.urlKey}`, page.status !== 'error', checkPageAnswer(page), page.error);
          }
        }
        if (wanted.has('monitor.check.completed')) {
          addEvent('monitor.check.completed', `${check.id}/completed`, check.status !== 'failed', checkAnswer(check), check.error);
        }
        let failed = 0;
        let retry: string | undefined;
        for (const event of events) {
          Context.current().heartbeat();
          const result = await sendWebhook({
            url: webhook.url,
            body: event.body,
            headers: webhook.headers ?? {},
            secret: monitor.team.webhookSigningSecret,
            timeoutMs: config.webhooks.timeoutMs,
            policy,
          });
          if (result.outcome === 'retry') retry = result.error ?? `HTTP ${result.statusCode}`;
          if (result.outcome === 'final') {
            failed++;
            log.warn('monitor webhook refused', { checkId: check.id, webhookId: event.webhookId, statusCode: result.statusCode, error: result.error });
          }
        }
        status.webhook = { events: events.length, failed, ...(retry && { retrying: retry }) };
        await db.monitorCheck.update({ where: { id: check.id }, data: { notificationStatus: status as object } });
        if (retry) throw ApplicationFailure.retryable(`monitor webhook not delivered yet: ${retry}`, 'WebhookRetry');
        return;
      }
      if (email) await db.monitorCheck.update({ where: { id: check.id }, data: { notificationStatus: status as object } });
    },
  };
}
