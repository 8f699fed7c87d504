import { fmt, LIMITS, routerMessages, type TrafficPoint } from '@hublink/contract';

/** One point of one interface's chart: epoch seconds, Mbit/s in (down) and out (upload). */
export interface ChartPoint {
  time: number;
  down: number;
  upload: number;
}

/** Each interface's latest points, oldest first. */
export type TrafficSeries = Readonly<Record<string, readonly ChartPoint[]>>;

/**
 * Adds a message's points to each interface's series and keeps the latest `window` of them (spec 3 §4:
 * 40). Points arrive in order from one device; one repeated or older than the last is dropped, so a
 * resent batch after a reconnect does not draw twice.
 */
export function addPoints(series: TrafficSeries, points: readonly TrafficPoint[], window: number = LIMITS.trafficWindow): TrafficSeries {
  const next: Record<string, ChartPoint[]> = {};
  for (const [name, list] of Object.entries(series)) next[name] = [...list];
  for (const p of points) {
    const list = (next[p.interface] ??= []);
    const last = list.at(-1);
    if (last && p.time <= last.time) continue;
    list.push({ time: p.time, down: p.down, upload: p.upload });
  }
  for (const list of Object.values(next)) if (list.length > window) list.splice(0, list.length - window);
  return next;
}

/** The text rate of spec 3 §4: the Mbit/s value divided by 8, to 2 decimals, in MB/s. */
export const rateText = (mbit: number): string => fmt(routerMessages.routerTrafficRate, { rate: (mbit / 8).toFixed(2) });

const two = (n: number) => String(n).padStart(2, '0');

/** Epoch seconds as the browser's local 'HH:mm:ss' (the x axis). */
export function clockTime(seconds: number): string {
  const d = new Date(seconds * 1000);
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}
