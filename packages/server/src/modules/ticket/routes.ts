import {
  appraiseSupportTicket,
  createSupportTicket,
  deleteSupportTicket,
  listSupportTickets,
  M,
  replySupportTicket,
  supportImage,
  supportTicketInfo,
  uploadSupportImage,
} from '@hublink/contract';
import type { Ctx } from '../../core/context';
import { ok } from '../../core/errors';
import { route, uploadedFile, type App } from '../../core/http';
import { imageUploadError, serveImage, uploadImage } from './images';
import * as tickets from './service';

/** Support tickets (spec 3 §7), and the image each src names. */
export function ticketRoutes(app: App, ctx: Ctx) {
  route(app, ctx, listSupportTickets, async ({ actor, query }) => {
    const { rows, count } = await tickets.list(ctx, actor, query);
    return ok(rows, 'success', count);
  });
  route(app, ctx, supportTicketInfo, async ({ actor, query }) => ok(await tickets.info(ctx, actor, query.ticket_number)));
  route(app, ctx, createSupportTicket, async ({ actor, body }) => ok({ ticket_number: await tickets.create(ctx, actor, body) }, M.supportCreated));
  route(app, ctx, deleteSupportTicket, async ({ actor, body }) => {
    await tickets.remove(ctx, actor, body.ticket_number);
    return ok(null, M.deleted);
  });
  route(app, ctx, replySupportTicket, async ({ actor, body }) => {
    await tickets.reply(ctx, actor, body);
    return ok(null, M.replied);
  });
  route(app, ctx, appraiseSupportTicket, async ({ actor, body }) => {
    await tickets.appraise(ctx, actor, body);
    return ok(null, M.commented);
  });
  route(app, ctx, uploadSupportImage, async ({ actor, req }) => {
    const file = await uploadedFile(req).catch((err: unknown) => Promise.reject(imageUploadError(err)));
    return ok(await uploadImage(ctx, actor, file), M.supportUploaded);
  });
  route(app, ctx, supportImage, async ({ actor, query }) => serveImage(ctx, actor, query.file_id));
}
