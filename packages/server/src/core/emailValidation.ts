import { createHash, randomBytes } from 'node:crypto';
import { fmt, LIMITS, M } from '@hublink/contract';
import type { Db } from '../db/connect';
import { destinationKey } from './codes';
import type { Ctx } from './context';
import { ApiError, invalid } from './errors';

// Emailed validation links (/validate/email?s=TOKEN, confirmed by POST /contacts/validate_email).
// A link proves that whoever reads the mailbox wants the address used for `subject` (for example a
// monitoring contact). Confirming emits email.validated, which the module that owns the subject
// handles; that module also cancels the subject's open links when its address changes or the subject
// goes (cancelEmailValidations), so an unused link always still applies.

export interface EmailValidationRow {
  tenant_id: number;
  email: string;
  subject: string;
  subject_id: string;
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export interface IssueInput extends EmailValidationRow {
  /** Where the console is served, e.g. 'https://console.example.com' (the link opens there). */
  origin: string;
  /** One line saying what the address is verified for, shown in the mail. */
  purpose: string;
}

/**
 * Mails a single-use validation link. Earlier links for the same subject stop working, so only the
 * newest mail counts. Returns the token (the dev outbox shows it as the message's code).
 */
export async function issueEmailValidation(ctx: Ctx, input: IssueInput): Promise<string> {
  const token = randomBytes(24).toString('base64url');
  const now = Date.now();
  const email = destinationKey('email', input.email);
  await ctx.db.transaction().execute(async (trx) => {
    await cancelEmailValidations(trx, input);
    await trx
      .insertInto('email_validation')
      .values({
        token_hash: hashToken(token),
        tenant_id: input.tenant_id,
        email,
        subject: input.subject,
        subject_id: input.subject_id,
        create_time: now,
        expires_at: now + LIMITS.emailValidationTtlSeconds * 1000,
        used_at: null,
      })
      .execute();
  });
  const link = `${input.origin.replace(/\/+$/, '')}/validate/email?s=${encodeURIComponent(token)}`;
  const hours = LIMITS.emailValidationTtlSeconds / 3600;
  const status = await ctx.outbox.deliver({
    channel: 'email',
    to: email,
    subject: M.emailValidationSubject,
    body: fmt(M.emailValidationBody, { purpose: input.purpose, hours, link }),
    code: token,
  });
  if (status === 'failed') {
    await ctx.db.deleteFrom('email_validation').where('token_hash', '=', hashToken(token)).execute();
    throw new ApiError(500, M.internalError);
  }
  return token;
}

/** Ends the open links of a subject (its address changed, or it is gone): call it in the change's transaction. */
export async function cancelEmailValidations(trx: Db, subject: Pick<EmailValidationRow, 'tenant_id' | 'subject' | 'subject_id'>): Promise<void> {
  await trx
    .updateTable('email_validation')
    .set({ used_at: Date.now() })
    .where('tenant_id', '=', subject.tenant_id)
    .where('subject', '=', subject.subject)
    .where('subject_id', '=', subject.subject_id)
    .where('used_at', 'is', null)
    .execute();
}

/**
 * Confirms a link once: unknown, used or superseded links answer '验证链接无效或已使用', old ones
 * '验证链接已过期…'. The link is used up and email.validated written in one transaction; the subject's
 * module applies it after commit.
 */
export async function confirmEmailValidation(ctx: Ctx, token: string): Promise<void> {
  const hash = hashToken(token.trim());
  await ctx.db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('email_validation').selectAll().where('token_hash', '=', hash).executeTakeFirst();
    if (!row || row.used_at !== null) throw invalid(M.validateLinkInvalid);
    if (Number(row.expires_at) <= Date.now()) throw invalid(M.validateLinkExpired);
    const used = await trx
      .updateTable('email_validation')
      .set({ used_at: Date.now() })
      .where('id', '=', row.id)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (Number(used.numUpdatedRows) !== 1) throw invalid(M.validateLinkInvalid);
    await ctx.events.emit(trx, { type: 'email.validated', tenant_id: row.tenant_id, subject: row.subject, subject_id: row.subject_id, email: row.email });
  });
}

/** Deletes links that ended (used or expired) more than `olderThanMs` ago; the housekeeping job calls it. */
export async function purgeEmailValidations(db: Db, olderThanMs: number): Promise<number> {
  const before = Date.now() - olderThanMs;
  const res = await db
    .deleteFrom('email_validation')
    .where((eb) => eb.or([eb('expires_at', '<', before), eb('used_at', '<', before)]))
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}
