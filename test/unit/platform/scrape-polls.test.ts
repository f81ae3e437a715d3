// The scrape queue's worker hands a single scrape's batch to itself (eager dispatch) only while one
// of its slots is free; a waiting poll holds a slot, so polls must leave some free.
import { expect, it } from 'vitest';
import { scrapePolls } from '../../../src/platform/temporal/worker-registry.ts';

it('leaves slots free for eager dispatch from two slots on, and always polls', () => {
  expect(scrapePolls(1)).toBe(1);
  for (let slots = 2; slots <= 64; slots++) {
    expect(scrapePolls(slots)).toBeGreaterThanOrEqual(1);
    expect(scrapePolls(slots)).toBeLessThan(slots);
  }
  expect(scrapePolls(8)).toBe(2);
});
