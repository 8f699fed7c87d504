import { randomUUID } from 'node:crypto';
import { fmt, LIMITS, M, type ContactItem, type createContact, type DomainEvent, type editContact } from '@hublink/contract';
import type { z } from 'zod';
import type { Actor } from '../../core/actor';
import type { Ctx } from '../../core/context';
import { cancelEmailValidations, issueEmailValidation } from '../../core/emailValidation';
import { ApiError, invalid, notFound, tooMany } from '../../core/errors';
import { may } from '../../core/guard';
import { pageOf } from '../../core/paging';
import type { Limit } from '../../core/ratelimit';
import { lockTenant } from '../../core/tenantLock';
import type { Db } from '../../db/connect';
import { maskedEmail } from './masking';

type CreateInput = z.output<typeof createContact.body>;
type EditInput = z.output<typeof editContact.body>;

/** The subject of a contact's validation links (core/emailValidation.ts); subject_id is its uuid. */
export const CONTACT_SUBJECT = 'monitor_contact';

/** Validation mails a tenant may send an hour, besides the per-contact cooldown. */
const MAIL_LIMIT: Limit = { name: 'contact-mail-tenant', max: 30, windowSeconds: 3600, message: M.contactMailLimit };
/** And one address may receive, whichever tenant asks (nobody's mailbox is a target). */
const ADDRESS_LIMIT: Limit = { name: 'contact-mail-address', max: 5, windowSeconds: 3600, message: M.contactMailLimit };

const COLUMNS = ['uuid', 'name', 'email', 'email_verify'] as const;
/** A contact as the calls answer it: the address masked for whoever may not edit monitoring (issue 33). */
const item = (actor: Actor, r: { uuid: string; name: string; email: string; email_verify: number }): ContactItem => ({
  uuid: r.uuid,
  name: r.name,
  email: may(actor, 'monitor.edit') ? r.email : maskedEmail(r.email),
  email_verify: r.email_verify === 1 ? 1 : 0,
});

const emailKey = (email: string) => email.trim().toLowerCase();

async function findContact(db: Db, tenantId: number, uuid: string) {
  const row = await db.selectFrom('monitor_contact').selectAll().where('tenant_id', '=', tenantId).where('uuid', '=', uuid.toLowerCase()).executeTakeFirst();
  if (!row) throw notFound(M.contactNotFound);
  return row;
}

/** GET /contacts/lists: oldest first, so a new contact goes to the end and pages stay put. */
export async function list(ctx: Ctx, actor: Actor, at: { page: number; limit: number }): Promise<{ rows: ContactItem[]; count: number }> {
  const filtered = ctx.db.selectFrom('monitor_contact').where('tenant_id', '=', actor.tenantId);
  const { rows, count } = await pageOf(filtered, at, (qb) => qb.select(COLUMNS).orderBy('id'));
  return { rows: rows.map((r) => item(actor, r)), count };
}

export async function info(ctx: Ctx, actor: Actor, uuid: string): Promise<ContactItem> {
  return item(actor, await findContact(ctx.db, actor.tenantId, uuid));
}

/** A second contact with the same address (any case) is refused; so is one past the tenant's limit. */
async function ensureFree(trx: Db, tenantId: number, key: string, except?: number) {
  let q = trx.selectFrom('monitor_contact').select('id').where('tenant_id', '=', tenantId).where('email_key', '=', key);
  if (except !== undefined) q = q.where('id', '!=', except);
  if (await q.executeTakeFirst()) throw invalid(M.contactEmailTaken);
}

/** Runs a write whose unique index may decide a race on the address: the loser hears it as taken. */
async function uniqueEmail<T>(ctx: Ctx, tenantId: number, key: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (e) {
    if (e instanceof ApiError) throw e;
    const winner = await ctx.db.selectFrom('monitor_contact').select('id').where('tenant_id', '=', tenantId).where('email_key', '=', key).executeTakeFirst();
    if (winner) throw invalid(M.contactEmailTaken);
    throw e;
  }
}

export async function create(ctx: Ctx, actor: Actor, input: CreateInput): Promise<string> {
  const key = emailKey(input.email);
  const uuid = randomUUID();
  return uniqueEmail(ctx, actor.tenantId, key, () =>
    ctx.db.transaction().execute(async (trx) => {
      await lockTenant(ctx, trx, actor.tenantId);
      await ensureFree(trx, actor.tenantId, key);
      const n = await trx.selectFrom('monitor_contact').select((eb) => eb.fn.countAll<number>().as('n')).where('tenant_id', '=', actor.tenantId).executeTakeFirstOrThrow();
      if (Number(n.n) >= LIMITS.contactsMax) throw invalid(fmt(M.contactsFull, { n: LIMITS.contactsMax }));
      const now = Date.now();
      await trx
        .insertInto('monitor_contact')
        .values({ uuid, tenant_id: actor.tenantId, name: input.name, email: input.email, email_key: key, verify_sent_at: null, create_time: now, update_time: now })
        .execute();
      return uuid;
    }),
  );
}

/** A changed address is unverified again: its open links end and the resend cooldown starts over. */
export async function edit(ctx: Ctx, actor: Actor, input: EditInput): Promise<void> {
  const key = emailKey(input.email);
  await uniqueEmail(ctx, actor.tenantId, key, () =>
    ctx.db.transaction().execute(async (trx) => {
      const contact = await findContact(trx, actor.tenantId, input.uuid);
      const changed = contact.email_key !== key;
      if (changed) await ensureFree(trx, actor.tenantId, key, contact.id);
      await trx
        .updateTable('monitor_contact')
        .set({ name: input.name, email: input.email, email_key: key, update_time: Date.now(), ...(changed ? { email_verify: 0, verify_sent_at: null } : {}) })
        .where('id', '=', contact.id)
        .execute();
      if (changed) await cancelEmailValidations(trx, { tenant_id: actor.tenantId, subject: CONTACT_SUBJECT, subject_id: contact.uuid });
    }),
  );
}

export async function remove(ctx: Ctx, actor: Actor, uuid: string): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const contact = await findContact(trx, actor.tenantId, uuid);
    await trx.deleteFrom('monitor_contact').where('id', '=', contact.id).execute();
    await cancelEmailValidations(trx, { tenant_id: actor.tenantId, subject: CONTACT_SUBJECT, subject_id: contact.uuid });
  });
}

/**
 * POST /contacts/send_validate_email: mails the link, at most once per contact in the cooldown (the
 * seconds left are in the refusal). The cooldown is taken before the mail goes and given back if the
 * mail could not be sent, so two clicks send one mail and a failed one can be tried again at once.
 */
export async function sendValidation(ctx: Ctx, actor: Actor, uuid: string, origin: string): Promise<void> {
  const contact = await findContact(ctx.db, actor.tenantId, uuid);
  if (contact.email_verify === 1) throw invalid(M.contactAlreadyVerified);
  const now = Date.now();
  const cooldownMs = LIMITS.contactEmailCooldownSeconds * 1000;
  const taken = await ctx.db
    .updateTable('monitor_contact')
    .set({ verify_sent_at: now })
    .where('id', '=', contact.id)
    .where('email_key', '=', contact.email_key)
    .where((eb) => eb.or([eb('verify_sent_at', 'is', null), eb('verify_sent_at', '<=', now - cooldownMs)]))
    .executeTakeFirst();
  if (Number(taken.numUpdatedRows) !== 1) {
    const fresh = await findContact(ctx.db, actor.tenantId, uuid);
    const left = Math.max(1, Math.ceil(((fresh.verify_sent_at ?? now) + cooldownMs - now) / 1000));
    throw tooMany(fmt(M.contactMailTooSoon, { n: left }));
  }
  try {
    await ctx.limiter.hit(MAIL_LIMIT, String(actor.tenantId));
    await ctx.limiter.hit(ADDRESS_LIMIT, contact.email_key);
    await issueEmailValidation(ctx, {
      tenant_id: actor.tenantId,
      email: contact.email,
      subject: CONTACT_SUBJECT,
      subject_id: contact.uuid,
      origin,
      purpose: M.contactMailPurpose,
    });
  } catch (e) {
    await ctx.db.updateTable('monitor_contact').set({ verify_sent_at: contact.verify_sent_at }).where('id', '=', contact.id).where('verify_sent_at', '=', now).execute();
    throw e;
  }
}

/** email.validated for a contact: verified, if the address is still the one the link was sent to. */
export async function markVerified(event: DomainEvent<'email.validated'>, ctx: Ctx): Promise<void> {
  if (event.subject !== CONTACT_SUBJECT) return;
  await ctx.db
    .updateTable('monitor_contact')
    .set({ email_verify: 1, update_time: Date.now() })
    .where('tenant_id', '=', event.tenant_id)
    .where('uuid', '=', event.subject_id)
    .where('email_key', '=', emailKey(event.email))
    .execute();
}
