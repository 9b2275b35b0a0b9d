import { describe, expect, it } from 'vitest';
import { nextMinute } from './register';

describe('registering again in the next minute', () => {
  it('waits for the next minute to start, with a margin', () => {
    const now = new Date(2026, 10, 27, 10, 34, 40, 250);
    const { ms, at } = nextMinute(now);
    expect(at).toEqual(new Date(2026, 10, 27, 10, 35, 0, 0));
    expect(ms).toBe(19_750 + 1500);
    expect(nextMinute(new Date(2026, 10, 27, 23, 59, 59, 0), 0).at).toEqual(new Date(2026, 10, 28, 0, 0, 0, 0));
  });
});
