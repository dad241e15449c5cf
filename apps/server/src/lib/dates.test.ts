import { describe, expect, it } from 'vitest';
import { addDays, dateTimeFormat, localDate, weekday } from './dates.ts';

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

  it('makes a format once per locale and options, refuses an unknown zone, and stays right past its bound', () => {
    const london = dateTimeFormat('en-GB', { timeZone: 'Europe/London', hour: '2-digit' });
    expect(dateTimeFormat('en-GB', { timeZone: 'Europe/London', hour: '2-digit' })).toBe(london);
    expect(dateTimeFormat('en-GB', { timeZone: 'Asia/Colombo', hour: '2-digit' })).not.toBe(london);
    expect(() => dateTimeFormat('en', { timeZone: 'Mars/Olympus' })).toThrow(RangeError);
    // A client naming one zone in 1,500 spellings: each is still read right past the bound.
    for (let i = 0; i < 1_500; i++) {
      const spelling = [...'europe/london'].map((c, j) => ((i >> j) & 1 ? c.toUpperCase() : c));
      expect(dateTimeFormat('en', { timeZone: spelling.join('') }).resolvedOptions().timeZone).toBe(
        'Europe/London',
      );
    }
    expect(localDate(new Date('2026-11-22T23:30:00Z'), 'Asia/Colombo')).toBe('2026-11-23');
  });
});
