import { z } from 'zod';
import { plainText } from './fields';

/** Development endpoints (DESIGN.md §6), under /api/dev, only with HUBLINK_DEV_ENDPOINTS=1. */
export const devCaptchaQuery = z.object({ uniqid: plainText().min(1) });
export const devOutboxQuery = z.object({ to: plainText().min(1) });
export const outboxEntry = z.object({
  to: z.string(),
  channel: z.enum(['sms', 'email']),
  subject: z.string(),
  body: z.string(),
  code: z.string(),
  create_time: z.string(),
});
export type OutboxEntry = z.infer<typeof outboxEntry>;
