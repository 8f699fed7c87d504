import { devCaptchaQuery, devOutboxQuery, type OutboxEntry } from '@hublink/contract';
import type { Ctx } from '../../core/context';
import { ok } from '../../core/errors';
import type { App } from '../../core/http';
import { formatTime } from '../../core/time';

/** DESIGN.md §6 development endpoints; registered only when HUBLINK_DEV_ENDPOINTS=1. */
export function devRoutes(app: App, ctx: Ctx) {
  app.get('/captcha', { schema: { querystring: devCaptchaQuery } }, async (req) => {
    return ok({ text: (await ctx.captcha.peek(req.query.uniqid)) ?? '' });
  });
  app.get('/outbox', { schema: { querystring: devOutboxQuery } }, async (req) => {
    const rows = await ctx.db
      .selectFrom('outbox')
      .selectAll()
      .where('recipient', '=', req.query.to.trim().toLowerCase().startsWith('+') ? req.query.to.trim() : req.query.to.trim().toLowerCase())
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
