// Crawl webhooks: the delivery activity (I/O queue) and its settings (control queue).
import type { Feature } from '../../platform/feature.ts';
import { createWebhookActivities } from '../../jobs/webhooks/activities.ts';
import { recordingAttempts } from '../../platform/temporal/attempt-record.ts';
import type { JobSettings } from '../../jobs/config.ts';

export const webhooksFeature: Feature<JobSettings> = {
  name: 'webhooks',
  activities(deps) {
    const { webhookSettings, deliverCrawlWebhooks } = createWebhookActivities(deps);
    return { control: { webhookSettings }, io: recordingAttempts(deps, { deliverCrawlWebhooks }) };
  },
};
