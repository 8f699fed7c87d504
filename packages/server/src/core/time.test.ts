import { describe, expect, it } from 'vitest';
import { formatTime, startOfDay } from './time';

describe('startOfDay', () => {
  it('is midnight of that day in the zone, one second after the day before ends', () => {
    for (const zone of ['Asia/Shanghai', 'UTC', 'America/New_York', 'Europe/London', 'Asia/Kolkata']) {
      for (const day of ['2026-01-15', '2026-03-08', '2026-03-29', '2026-10-25', '2026-11-01', '2024-02-29']) {
        const start = startOfDay(day, zone);
        expect({ zone, at: formatTime(start, zone) }).toEqual({ zone, at: `${day} 00:00:00` });
        expect(formatTime(start - 1000, zone).slice(11)).toBe('23:59:59');
      }
    }
  });

  it('gives Shanghai days 8 hours ahead of UTC', () => {
    expect(startOfDay('2026-03-01', 'Asia/Shanghai')).toBe(Date.UTC(2026, 1, 28, 16));
  });
});

describe('formatTime', () => {
  /** What Intl reads for the moment, the slow and obviously right way. */
  const byIntl = (ms: number, timeZone: string) =>
    new Intl.DateTimeFormat('sv-SE', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' })
      .format(new Date(ms))
      .replace('T', ' ');

  it('agrees with Intl in every zone, across DST changes, second by second around them', () => {
    const zones = ['Asia/Shanghai', 'UTC', 'America/New_York', 'Europe/London', 'Asia/Kolkata', 'Australia/Lord_Howe', 'Asia/Kathmandu'];
    const moments = [Date.UTC(2026, 2, 8, 6, 59, 58), Date.UTC(2026, 2, 29, 0, 59, 58), Date.UTC(2026, 10, 1, 5, 59, 58), Date.UTC(2026, 9, 25, 0, 59, 58)];
    for (let i = 0; i < 400; i++) moments.push(Date.UTC(2020, 0, 1) + Math.floor(Math.random() * 10 * 365 * 86_400_000));
    for (const zone of zones) {
      for (const m of moments) {
        for (const step of [0, 1000, 2000, 3000, 1500]) {
          expect({ zone, m: m + step, at: formatTime(m + step, zone) }).toEqual({ zone, m: m + step, at: byIntl(m + step, zone) });
        }
      }
    }
  });
});
