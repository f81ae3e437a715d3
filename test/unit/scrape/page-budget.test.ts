import { describe, expect, it } from 'vitest';
import { PageBudget, PageTimeoutError } from '../../../src/page/page-budget.ts';

describe('PageBudget', () => {
  it('counts down and never reports 0, which Playwright reads as no timeout', async () => {
    const budget = new PageBudget(30);
    expect(budget.remaining()).toBeGreaterThan(20);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(budget.remaining()).toBe(1);
  });

  it('passes results through and stops work that outlives the budget', async () => {
    const budget = new PageBudget(50);
    await expect(budget.race(Promise.resolve('done'))).resolves.toBe('done');
    const never = new Promise(() => {});
    await expect(budget.race(never)).rejects.toBeInstanceOf(PageTimeoutError);
    await expect(budget.race(never)).rejects.toThrow('The page did not finish within its 50 ms timeout');
  });
});
