import { cancelTicket, createTicket, deleteTicket, listTickets, M, ticketConfig, ticketView } from '@hublink/contract';
import type { Ctx } from '../../core/context';
import { ok } from '../../core/errors';
import { route, type App } from '../../core/http';
import * as tickets from './service';

/** Network work orders and the access-POP wizard (spec 2 §7). */
export function ticketRoutes(app: App, ctx: Ctx) {
  route(app, ctx, listTickets, async ({ actor, query }) => {
    const { rows, count } = await tickets.list(ctx, actor, query);
    return ok(rows, 'success', count);
  });
  route(app, ctx, ticketView, async ({ actor, query }) => ok(await tickets.view(ctx, actor, query.network_ticket_number)));
  route(app, ctx, ticketConfig, async ({ actor, query }) => ok(await tickets.config(ctx, actor, query.network_number)));
  route(app, ctx, createTicket, async ({ actor, body }) => ok({ network_ticket_number: await tickets.create(ctx, actor, body) }, M.ticketSubmitted));
  route(app, ctx, deleteTicket, async ({ actor, body }) => {
    await tickets.remove(ctx, actor, body.network_ticket_number);
    return ok(null, M.deleted);
  });
  route(app, ctx, cancelTicket, async ({ actor, body }) => {
    await tickets.cancelByTenant(ctx, actor, body.network_ticket_number);
    return ok(null, M.cancelled);
  });
}
