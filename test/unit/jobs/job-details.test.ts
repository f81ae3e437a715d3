import { describe, expect, it } from 'vitest';
import { jobDetails } from '../../../src/jobs/job-details.ts';
import type { JobProgress } from '../../../src/jobs/definitions.ts';

const progress = (over: Partial<JobProgress> = {}): JobProgress => ({
  status: 'scraping',
  phase: 'scraping',
  completed: 120,
  total: 463,
  failed: 3,
  queued: 340,
  creditsUsed: 121,
  batchesInFlight: 2,
  batchesStarted: 5,
  outOfCredits: false,
  ...over,
});

describe('jobDetails', () => {
  it('says what a scraping crawl has stored, queued and failed, its batches and its credits', () => {
    expect(jobDetails(progress())).toBe('scraping: 120 stored, 340 queued, 3 failed · 2 batches running · 121 credits used');
    expect(jobDetails(progress({ batchesInFlight: 1, creditsUsed: 1 }))).toBe('scraping: 120 stored, 340 queued, 3 failed · 1 batch running · 1 credit used');
    expect(jobDetails(progress({ batchesInFlight: 0 }))).toBe('scraping: 120 stored, 340 queued, 3 failed · no batch running · 121 credits used');
  });

  it('names the planning step before there is anything to count', () => {
    expect(jobDetails(progress({ phase: 'planning' }))).toBe('planning: queueing the first URLs');
  });

  it('gives the wait of a delay between pages', () => {
    expect(jobDetails(progress({ phase: 'delay', delayMs: 2000, batchesInFlight: 0 }))).toBe(
      'waiting 2 s (delay between pages) · 120 stored, 340 queued, 3 failed · 121 credits used',
    );
    expect(jobDetails(progress({ phase: 'delay', delayMs: 1500 }))).toMatch(/^waiting 1\.5 s /);
  });

  it('tells a cancellation waiting for its batches from one recording its end', () => {
    expect(jobDetails(progress({ phase: 'cancelling' }))).toBe('cancelling: waiting for 2 batches to stop · 120 stored, 340 queued, 3 failed');
    expect(jobDetails(progress({ phase: 'cancelling', batchesInFlight: 0 }))).toBe('cancelling: recording the end · 120 stored, 340 queued, 3 failed');
    expect(jobDetails(progress({ phase: 'failing', batchesInFlight: 1 }))).toBe('failing: waiting for 1 batch to stop · 120 stored, 340 queued, 3 failed');
  });

  it('shows finishing, and the end with the status GET /v2/crawl/{id} gives', () => {
    expect(jobDetails(progress({ phase: 'finishing', queued: 0, batchesInFlight: 0 }))).toBe('finishing: 120 stored, 0 queued, 3 failed · 121 credits used');
    expect(jobDetails(progress({ phase: 'ended', status: 'completed', queued: 0 }))).toBe('completed: 120 stored, 3 failed · 121 credits used');
    expect(jobDetails(progress({ phase: 'ended', status: 'cancelled', outOfCredits: true }))).toBe('cancelled: 120 stored, 3 failed · 121 credits used');
  });

  it('says when the team ran out of credits while batches still run', () => {
    expect(jobDetails(progress({ outOfCredits: true }))).toBe(
      'scraping: 120 stored, 340 queued, 3 failed · 2 batches running · 121 credits used · out of credits: no new batches',
    );
  });
});
