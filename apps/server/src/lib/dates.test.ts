import { describe, expect, it } from 'vitest';
import { addDays, localDate, weekday } from './dates.ts';

describe('calendar dates', () => {
  it('reads the date as the given zone sees it, not as UTC does', () => {
    const lateEvening = new Date('2026-11-22T23:30:00Z');
    expect(localDate(lateEvening, 'Europe/London')).toBe('2026-11-22');
    expect(localDate(lateEvening, 'Asia/Colombo')).toBe('2026-11-23');
    expect(localDate(lateEvening, 'America/New_York')).toBe('2026-11-22');
  });

  it('adds days across month, year and daylight-saving boundaries', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-28', 2)).toBe('2026-03-30');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });

  it('knows the weekday of a date', () => {
    expect(weekday('2026-11-22')).toBe(0);
    expect(weekday('2026-11-28')).toBe(6);
  });
});
