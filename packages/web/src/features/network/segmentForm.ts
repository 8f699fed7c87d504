import { SEGMENT_LIMITS } from '@hublink/contract';
import type { Rule } from 'antd/es/form';
import type { z } from 'zod';

/** An antd rule from one contract schema: the form shows exactly the server's message. */
export const zodRule = (schema: z.ZodType): Rule => ({
  validator: async (_, v: unknown) => {
    const r = schema.safeParse(v ?? undefined);
    if (!r.success) throw new Error(r.error.issues[0]?.message);
  },
});

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** The masks a VPN segment may have (spec 2 §9: 16 to 24). */
export const SEGMENT_MASK_OPTIONS = range(SEGMENT_LIMITS.segmentMaskMin, SEGMENT_LIMITS.segmentMaskMax).map((n) => ({ value: n, label: `/${n}` }));

/** Prefix masks (8 to 32) and match lengths (up to 32). */
export const PREFIX_MASK_OPTIONS = range(SEGMENT_LIMITS.prefixMaskMin, SEGMENT_LIMITS.prefixMaskMax).map((n) => ({ value: n, label: `/${n}` }));
export const MATCH_OPTIONS = range(1, SEGMENT_LIMITS.prefixMatchMax).map((n) => ({ value: n, label: String(n) }));

/** Text of a form field, trimmed; '' for none. */
export const text = (v: unknown) => (typeof v === 'string' ? v.trim() : v === undefined || v === null ? '' : String(v));
