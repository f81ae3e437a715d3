// Crawl webhooks: the delivery activity (I/O queue) and its settings (control queue).
import type { Feature } from '../../platform/feature.ts';
import { createWebhookActivities } from '../../jobs/webhooks/activities.ts';

export const webhooksFeature: Feature = {
  name: 'webhooks',
  activities(deps) {
    const { webhookSettings, deliverCrawlWebhooks } = createWebhookActivities(deps);
    return { control: { webhookSettings }, io: { deliverCrawlWebhooks } };
  },
};
