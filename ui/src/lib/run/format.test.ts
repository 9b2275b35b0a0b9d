import { describe, expect, it } from 'vitest';
import { formatClock, formatDateTime, formatDuration, formatNumber, formatPercent, formatTokens } from './format';

describe('formatDuration', () => {
  it('is as precise as useful, in English', () => {
    expect(formatDuration(0, 'en')).toBe('0 ms');
    expect(formatDuration(850, 'en')).toBe('850 ms');
    expect(formatDuration(1789, 'en')).toBe('1.7 s');
    expect(formatDuration(9999, 'en')).toBe('9.9 s');
    expect(formatDuration(12_400, 'en')).toBe('12 s');
    expect(formatDuration(125_000, 'en')).toBe('2 min 5 s');
    expect(formatDuration(3_725_000, 'en')).toBe('1 h 2 min');
    expect(formatDuration(-5, 'en')).toBe('0 ms');
  });

  it('and in Japanese', () => {
    expect(formatDuration(850, 'ja')).toBe('850 ミリ秒');
    expect(formatDuration(1789, 'ja')).toBe('1.7 秒');
    expect(formatDuration(125_000, 'ja')).toBe('2 分 5 秒');
    expect(formatDuration(3_725_000, 'ja')).toBe('1 時間 2 分');
  });
});

describe('numbers', () => {
  it('groups counts and says tokens in the plural the count needs', () => {
    expect(formatNumber(12345, 'en')).toBe('12,345');
    expect(formatNumber(12345, 'ja')).toBe('12,345');
    expect(formatTokens(0, 0, 'en')).toBeNull();
    expect(formatTokens(1, 0, 'en')).toBe('1 token');
    expect(formatTokens(1000, 234, 'en')).toBe('1,234 tokens');
    expect(formatTokens(1000, 234, 'ja')).toBe('1,234 トークン');
  });

  it('rounds shares to whole percentages, within 0–100 %', () => {
    expect(formatPercent(0.4, 'en')).toBe('40%');
    expect(formatPercent(0.876, 'ja')).toBe('88%');
    expect(formatPercent(1.7, 'en')).toBe('100%');
    expect(formatPercent(Number.NaN, 'en')).toBe('0%');
  });
});

describe('times', () => {
  const at = '2026-11-27T04:44:08.586Z';

  it('says the time of day in the viewer’s zone, 24-hour', () => {
    expect(formatClock(at, 'en', 'UTC')).toBe('04:44:08');
    expect(formatClock(at, 'ja', 'Asia/Tokyo')).toBe('13:44:08');
    expect(formatClock('not a time', 'en')).toBe('');
  });

  it('says date and time for headers', () => {
    expect(formatDateTime(at, 'en', 'UTC')).toBe('Nov 27, 2026, 04:44:08');
    expect(formatDateTime(at, 'ja', 'Asia/Tokyo')).toBe('2026年11月27日 13:44:08');
  });
});
