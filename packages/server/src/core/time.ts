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

/** Formats epoch milliseconds as 'yyyy-MM-dd HH:mm:ss' in the given time zone. */
export function formatTime(ms: number, timeZone: string): string {
  const parts = formatterFor(timeZone).formatToParts(new Date(ms));
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '00';
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')}:${get('second')}`;
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
