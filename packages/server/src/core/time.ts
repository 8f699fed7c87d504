/** One formatter per time zone: building an Intl.DateTimeFormat costs far more than using it. */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The wall-clock reading of a moment in a zone, by Intl (slow: used once per quarter hour and zone). */
function wallParts(ms: number, timeZone: string) {
  const parts = formatterFor(timeZone).formatToParts(new Date(ms));
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? 0);
  return { y: get('year'), mo: get('month'), d: get('day'), h: get('hour'), mi: get('minute'), s: get('second') };
}

const QUARTER_HOUR = 15 * 60_000;
const OFFSET_CACHE_MAX = 50_000;
/** zone → quarter hour of UTC → the zone's offset from UTC in ms. Offsets only change on quarter hours. */
const offsets = new Map<string, Map<number, number>>();

function offsetOf(ms: number, timeZone: string): number {
  const bucket = Math.floor(ms / QUARTER_HOUR);
  let zone = offsets.get(timeZone);
  if (!zone) offsets.set(timeZone, (zone = new Map()));
  let offset = zone.get(bucket);
  if (offset === undefined) {
    const at = bucket * QUARTER_HOUR;
    const w = wallParts(at, timeZone);
    offset = Date.UTC(w.y, w.mo - 1, w.d, w.h, w.mi, w.s) - at;
    if (zone.size >= OFFSET_CACHE_MAX) zone.clear();
    zone.set(bucket, offset);
  }
  return offset;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * Formats epoch milliseconds as 'yyyy-MM-dd HH:mm:ss' in the given time zone. Lists format thousands
 * of times per answer, so the zone's offset is looked up once per quarter hour and the rest is arithmetic.
 */
export function formatTime(ms: number, timeZone: string): string {
  const t = new Date(Math.floor(ms / 1000) * 1000 + offsetOf(ms, timeZone));
  return `${pad(t.getUTCFullYear(), 4)}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())} ${pad(t.getUTCHours())}:${pad(t.getUTCMinutes())}:${pad(t.getUTCSeconds())}`;
}

/** Epoch milliseconds at which the calendar day 'yyyy-MM-dd' begins in the given time zone. */
export function startOfDay(date: string, timeZone: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const asUtc = Date.UTC(y, m - 1, d);
  // The zone's offset at a moment: its wall-clock time read as UTC, minus the moment.
  const offsetAt = (ms: number) => {
    const wall = formatTime(ms, timeZone).replace(' ', 'T') + 'Z';
    return Date.parse(wall) - Math.floor(ms / 1000) * 1000;
  };
  const first = asUtc - offsetAt(asUtc);
  // Once more with the offset in force at that moment (a day that starts across a DST change).
  return asUtc - offsetAt(first);
}

/** The day after 'yyyy-MM-dd'. */
const nextDay = (date: string) => {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
};

/** [from, to) in epoch ms for whole days 'yyyy-MM-dd' of the zone, both included; either end may be open. */
export function dayRange(start: string | undefined, end: string | undefined, timeZone: string): { from?: number; to?: number } {
  return {
    ...(start ? { from: startOfDay(start, timeZone) } : {}),
    ...(end ? { to: startOfDay(nextDay(end), timeZone) } : {}),
  };
}
