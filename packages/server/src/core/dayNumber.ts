import { randomInt } from 'node:crypto';

/**
 * A readable record number: `prefix`, the UTC day (yyyyMMdd) and `digits` random digits (at most 12),
 * e.g. ticket numbers a tenant reads out over the phone. Not unique by itself: the column's unique
 * index is, and the caller draws again on a collision.
 */
export function randomDayNumber(prefix: string, digits: number, now = Date.now()): string {
  const day = new Date(now).toISOString().slice(0, 10).replaceAll('-', '');
  return `${prefix}${day}${String(randomInt(10 ** digits)).padStart(digits, '0')}`;
}
