import { describe, expect, it } from 'vitest';
import { downloadAllowance, usageLevel } from './plan-usage';

const free = (downloadsLeft: number, jobsLeft: number) => ({
  paid: false,
  downloadsPerMonth: 3,
  downloadsLeft,
  jobsPerMonth: 30,
  jobsLeft,
});

describe('usageLevel', () => {
  it('is plain while most of the month is left, amber near a limit and red at it', () => {
    expect(usageLevel(free(3, 30))).toBe('plenty');
    expect(usageLevel(free(2, 7))).toBe('plenty');
    expect(usageLevel(free(1, 30))).toBe('low');
    expect(usageLevel(free(3, 6))).toBe('low');
    expect(usageLevel(free(0, 30))).toBe('out');
    expect(usageLevel(free(3, 0))).toBe('out');
  });

  it('never warns a paid or unlimited plan', () => {
    expect(usageLevel({ paid: true, downloadsLeft: 0, jobsLeft: 0 })).toBe('plenty');
    expect(usageLevel({ paid: false, downloadsPerMonth: -1, downloadsLeft: -1, jobsPerMonth: -1, jobsLeft: -1 })).toBe('plenty');
  });
});

describe('downloadAllowance', () => {
  it('says what a download costs before the limit is hit, and when it has been', () => {
    expect(downloadAllowance(free(3, 30))).toBe('3 of 3 free downloads left this month; each download uses one.');
    expect(downloadAllowance(free(1, 30))).toBe('1 of 3 free downloads left this month; each download uses one.');
    expect(downloadAllowance(free(0, 30))).toBe("You have used this month's 3 free downloads: upgrade to download more.");
  });

  it('says nothing on a paid plan or before the plan is known', () => {
    expect(downloadAllowance({ paid: true })).toBeNull();
    expect(downloadAllowance(undefined)).toBeNull();
  });
});
