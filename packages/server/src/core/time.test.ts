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
