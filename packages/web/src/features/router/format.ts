import { fmt, LIMITS, M } from '@hublink/contract';

/** '+86 13800000000' → { area: '86', phone: '13800000000' }; a bare number keeps the default area. */
export function splitPhone(value: string, area = ''): { area: string; phone: string } {
  const m = /^\+?(\d{1,4})\s+(\S+)$/.exec(value.trim());
  if (m) return { area: m[1]!, phone: m[2]! };
  return { area: area.replace(/^\+/, '') || LIMITS.defaultAreaCode, phone: value.trim() };
}

const MINUTE = 60;
const HOUR = 3600;

/** Seconds online as '1小时2分3秒', '2分3秒' or '3秒'. */
export function duration(seconds: number): string {
  const t = Math.max(0, Math.floor(seconds));
  const h = Math.floor(t / HOUR);
  const m = Math.floor((t % HOUR) / MINUTE);
  const s = t % MINUTE;
  if (h > 0) return fmt(M.memberDurationHms, { h, m, s });
  if (m > 0) return fmt(M.memberDurationMs, { m, s });
  return fmt(M.memberDurationS, { s });
}
