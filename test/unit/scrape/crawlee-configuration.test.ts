// A batch's crawler runs a fixed concurrency: Crawlee's sampling of the machine (a `ps` spawn and a
// blocking read of /proc/meminfo when a crawler starts, twice) would only delay its first page.
import { EventManager, LocalEventManager } from '@crawlee/core';
import { expect, it } from 'vitest';
import { crawlerConfiguration } from '../../../src/page/crawlee-configuration.ts';

it('starts no system sampling: an event manager without systemInfo, and the memory given', async () => {
  const config = crawlerConfiguration();
  const events = config.getEventManager();
  expect(events).toBeInstanceOf(EventManager);
  expect(events).not.toBeInstanceOf(LocalEventManager);
  // Given, so the memory signal does not sample the machine to learn it.
  expect(config.get('memoryMbytes')).toBeGreaterThan(0);
  let samples = 0;
  events.on('systemInfo', () => samples++);
  await events.init();
  await events.close();
  expect(samples).toBe(0);
  expect(config.get('persistStorage')).toBe(false);
});
