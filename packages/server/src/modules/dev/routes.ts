import { devCaptchaQuery, devOutboxQuery, type OutboxEntry } from '@hublink/contract';
import type { Ctx } from '../../core/context';
import { ok } from '../../core/errors';
import type { App } from '../../core/http';
import { formatTime } from '../../core/time';

/**
 * The outbox's spelling of an address: an email lowercased, a phone as '+86 13800000000'. A phone
 * written into a URL unescaped ('?to=+86 138…') arrives as ' 86 138…' and is taken as meant.
 */
function outboxAddress(to: string): string {
  const v = to.trim();
  if (/^\d{1,4} \d{4,15}$/.test(v)) return `+${v}`;
  return v.startsWith('+') ? v.replace(/\s+/g, ' ') : v.toLowerCase();
}

/** DESIGN.md §6 development endpoints; registered only when HUBLINK_DEV_ENDPOINTS=1. */
export function devRoutes(app: App, ctx: Ctx) {
  app.get('/captcha', { schema: { querystring: devCaptchaQuery } }, async (req) => {
    return ok({ text: (await ctx.captcha.peek(req.query.uniqid)) ?? '' });
  });
  app.get('/outbox', { schema: { querystring: devOutboxQuery } }, async (req) => {
    const rows = await ctx.db
      .selectFrom('outbox')
      .selectAll()
      .where('recipient', '=', outboxAddress(req.query.to))
      .orderBy('id', 'desc')
      .limit(50)
      .execute();
    const data: OutboxEntry[] = rows.map((r) => ({
      to: r.recipient,
      channel: r.channel as OutboxEntry['channel'],
      subject: r.subject,
      body: r.body,
      code: r.code,
      create_time: formatTime(r.create_time, ctx.config.timezone),
    }));
    return ok(data);
  });
}
