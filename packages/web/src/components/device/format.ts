import { fmt, routerMessages } from '@hublink/contract';

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];

/** Bytes as '1.50 MB'. */
export function bytes(n: number): string {
  let v = Math.max(0, n);
  let i = 0;
  while (v >= 1024 && i < UNITS.length - 1) {
    v /= 1024;
    i += 1;
  }
  return i === 0 ? `${v} B` : `${v.toFixed(2)} ${UNITS[i]}`;
}

/** Seconds as '1小时2分3秒', '2分3秒' or '3秒'. */
export function duration(seconds: number): string {
  const t = Math.max(0, Math.floor(seconds));
  const h = Math.floor(t / 3600);
  const m = Math.floor((t % 3600) / 60);
  const s = t % 60;
  if (h > 0) return fmt(routerMessages.memberDurationHms, { h, m, s });
  if (m > 0) return fmt(routerMessages.memberDurationMs, { m, s });
  return fmt(routerMessages.memberDurationS, { s });
}
