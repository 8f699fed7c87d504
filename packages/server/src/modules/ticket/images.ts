import { randomBytes } from 'node:crypto';
import { LIMITS, M, supportImageFormatOf, supportImageSrc, type SupportAttachment } from '@hublink/contract';
import type { Actor } from '../../core/actor';
import type { Ctx } from '../../core/context';
import { ApiError, invalid, notFound } from '../../core/errors';
import { FileAnswer, type Upload } from '../../core/http';
import type { Db } from '../../db/connect';

/*
 * The images of support tickets (spec 3 §5): png, gif or jpeg, judged by the name's extension and by
 * the first bytes, which must be that format's signature (a script or an executable renamed .png is
 * refused, and so is a GIF named .png: name and content must agree); at most 2 MB. An upload is
 * pending until a ticket or a reply takes it (each upload once, only its own tenant's); the tenant's
 * pending uploads are bounded, and the sweep removes those a day old and those of deleted tickets.
 * An image is served only to its tenant, with the type its bytes proved and nosniff (security headers).
 */

export const FILE_STATE = { pending: 0, attached: 1, discarded: 2 } as const;

const SIGNATURES: Record<string, readonly Buffer[]> = {
  'image/png': [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])],
  'image/gif': [Buffer.from('GIF87a', 'latin1'), Buffer.from('GIF89a', 'latin1')],
  'image/jpeg': [Buffer.from([0xff, 0xd8, 0xff])],
};

const UPLOAD_TTL_MS = LIMITS.supportUploadTtlHours * 3600_000;
/** Files one pass of the sweep removes before it looks again. */
const SWEEP_BATCH = 200;

/** The type an image is stored and served with, or a refusal: its name and its first bytes must agree on png, gif or jpeg. */
export function imageTypeOf(file: Upload): string {
  const format = supportImageFormatOf(file.filename);
  if (!format) throw invalid(M.supportImageFormat);
  if (file.body.length > LIMITS.uploadMaxBytes) throw invalid(M.supportImageTooLarge);
  const signatures = SIGNATURES[format.contentType] ?? [];
  if (!signatures.some((sig) => file.body.length >= sig.length && file.body.subarray(0, sig.length).equals(sig))) throw invalid(M.supportImageFormat);
  return format.contentType;
}

/** The multipart reader's refusal of a file over 2 MB in this area's words ('图片大小不能超过 2MB!'). */
export function imageUploadError(err: unknown): unknown {
  return err instanceof ApiError && err.message === M.fileTooLarge ? invalid(M.supportImageTooLarge) : err;
}

/** POST /ticket/upload_file: a tenant's image, checked, stored as a pending upload while the tenant holds fewer than the bound. */
export async function uploadImage(ctx: Ctx, actor: Actor, file: Upload): Promise<SupportAttachment> {
  imageTypeOf(file);
  const pending = await ctx.db
    .selectFrom('support_file')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('tenant_id', '=', actor.tenantId)
    .where('state', '=', FILE_STATE.pending)
    .executeTakeFirstOrThrow();
  if (Number(pending.n) >= LIMITS.supportPendingUploadsMax) throw invalid(M.supportUploadsTooMany);
  return storeImage(ctx, actor.tenantId, file);
}

/**
 * Stores an image of a tenant as a pending upload; answers its id and src. The object is written
 * before its row, so a row always has its object; an object whose row failed is removed again.
 */
export async function storeImage(ctx: Ctx, tenantId: number, file: Upload): Promise<SupportAttachment> {
  const contentType = imageTypeOf(file);
  const fileId = randomBytes(16).toString('hex');
  const key = `ticket/${fileId}`;
  await ctx.storage.put(tenantId, key, file.body, contentType);
  try {
    await ctx.db
      .insertInto('support_file')
      .values({ file_id: fileId, tenant_id: tenantId, storage_key: key, content_type: contentType, size: file.body.length, state: FILE_STATE.pending, ticket_id: null, dialogue_id: null, create_time: Date.now() })
      .execute();
  } catch (e) {
    await ctx.storage.delete(tenantId, key).catch((err: unknown) => ctx.log.warn({ err, tenantId, key }, 'ticket image without its row not removed'));
    throw e;
  }
  return { file_id: fileId, src: supportImageSrc(fileId) };
}

/**
 * Attaches pending uploads of the tenant to a ticket (dialogueId null) or to one of its dialogue
 * entries, inside the caller's transaction. An id of another tenant, one already used, one older
 * than a day or none at all refuses the whole call.
 */
export async function attachImages(trx: Db, tenantId: number, fileIds: readonly string[], ticketId: number, dialogueId: number | null): Promise<void> {
  if (fileIds.length === 0) return;
  const done = await trx
    .updateTable('support_file')
    .set({ state: FILE_STATE.attached, ticket_id: ticketId, dialogue_id: dialogueId })
    .where('tenant_id', '=', tenantId)
    .where('file_id', 'in', [...fileIds])
    .where('state', '=', FILE_STATE.pending)
    .where('create_time', '>', Date.now() - UPLOAD_TTL_MS)
    .executeTakeFirst();
  if (Number(done.numUpdatedRows) !== fileIds.length) throw invalid(M.supportImageInvalid);
}

/** The images of tickets, by ticket and entry (key `${ticket_id}:${dialogue_id ?? ''}`), oldest first. */
export async function imagesOf(db: Db, tenantId: number, ticketIds: readonly number[]): Promise<Map<string, SupportAttachment[]>> {
  const out = new Map<string, SupportAttachment[]>();
  if (ticketIds.length === 0) return out;
  const rows = await db
    .selectFrom('support_file')
    .select(['file_id', 'ticket_id', 'dialogue_id'])
    .where('tenant_id', '=', tenantId)
    .where('ticket_id', 'in', [...ticketIds])
    .where('state', '=', FILE_STATE.attached)
    .orderBy('id')
    .execute();
  for (const r of rows) {
    const key = imageKey(r.ticket_id!, r.dialogue_id);
    out.set(key, [...(out.get(key) ?? []), { file_id: r.file_id, src: supportImageSrc(r.file_id) }]);
  }
  return out;
}

export const imageKey = (ticketId: number, dialogueId: number | null) => `${ticketId}:${dialogueId ?? ''}`;

/** GET /ticket/file: an image of the caller's tenant (pending or attached), shown inline; 204 for any other. */
export async function serveImage(ctx: Ctx, actor: Actor, fileId: string): Promise<FileAnswer> {
  const row = await ctx.db
    .selectFrom('support_file')
    .select(['storage_key', 'content_type'])
    .where('file_id', '=', fileId)
    .where('tenant_id', '=', actor.tenantId)
    .where('state', '!=', FILE_STATE.discarded)
    .executeTakeFirst();
  const stored = row ? await ctx.storage.get(actor.tenantId, row.storage_key) : null;
  if (!row || !stored) throw notFound(M.supportImageNotFound);
  const ext = row.content_type === 'image/jpeg' ? 'jpg' : row.content_type.slice('image/'.length);
  return new FileAnswer(`${fileId}.${ext}`, row.content_type, stored.body, { disposition: 'inline' });
}

/** Removes discarded files: each object, then its row. */
export async function removeDiscarded(ctx: Ctx, files: readonly { id: number; tenant_id: number; storage_key: string }[]): Promise<void> {
  for (const f of files) await ctx.storage.delete(f.tenant_id, f.storage_key);
  if (files.length === 0) return;
  await ctx.db
    .deleteFrom('support_file')
    .where(
      'id',
      'in',
      files.map((f) => f.id),
    )
    .where('state', '=', FILE_STATE.discarded)
    .execute();
}

/**
 * The job `ticket.images-sweep`: uploads pending for more than a day are discarded (so no ticket can
 * take them any more), then every discarded file is removed, object first. A failure leaves the rest
 * discarded for the next run.
 */
export async function sweepImages(ctx: Ctx, now = Date.now()): Promise<void> {
  await ctx.db
    .updateTable('support_file')
    .set({ state: FILE_STATE.discarded })
    .where('state', '=', FILE_STATE.pending)
    .where('create_time', '<=', now - UPLOAD_TTL_MS)
    .execute();
  for (;;) {
    const batch = await ctx.db.selectFrom('support_file').select(['id', 'tenant_id', 'storage_key']).where('state', '=', FILE_STATE.discarded).orderBy('id').limit(SWEEP_BATCH).execute();
    if (batch.length === 0) return;
    await removeDiscarded(ctx, batch);
  }
}
