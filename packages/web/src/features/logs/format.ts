import { fmt, M } from '@hublink/contract';

const MINUTE = 60;
const HOUR = 3600;

/** Seconds online as '1小时2分3秒', '2分3秒' or '3秒' (as the member detail shows them). */
export function duration(seconds: number): string {
  const t = Math.max(0, Math.floor(seconds));
  const h = Math.floor(t / HOUR);
  const m = Math.floor((t % HOUR) / MINUTE);
  const s = t % MINUTE;
  if (h > 0) return fmt(M.memberDurationHms, { h, m, s });
  if (m > 0) return fmt(M.memberDurationMs, { m, s });
  return fmt(M.memberDurationS, { s });
}
