import { LIMITS } from '@hublink/contract';

/** '+86 13800000000' → { area: '86', phone: '13800000000' }; a bare number keeps the default area. */
export function splitPhone(value: string, area = ''): { area: string; phone: string } {
  const m = /^\+?(\d{1,4})\s+(\S+)$/.exec(value.trim());
  if (m) return { area: m[1]!, phone: m[2]! };
  return { area: area.replace(/^\+/, '') || LIMITS.defaultAreaCode, phone: value.trim() };
}
