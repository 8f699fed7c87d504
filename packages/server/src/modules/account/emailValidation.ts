import { createHash, randomBytes } from 'node:crypto';
import type { Transaction } from 'kysely';
import { LIMITS, M } from '@hublink/contract';
import { destinationKey } from '../../core/codes';
import type { Ctx } from '../../core/context';
import { ApiError, invalid } from '../../core/errors';
import type { Database } from '../../db/types';

// Emailed validation links (/validate/email?s=TOKEN, confirmed by POST /contacts/validate_email).
// A link proves that whoever reads the mailbox wants the address used for `subject` (for example a
// monitoring contact). The module that owns the subject registers what a confirmed link does.

export interface EmailValidationRow {
  tenant_id: number;
  email: string;
  subject: string;
  subject_id: string;
}

/** Applies a confirmed link inside the confirming transaction; false when it no longer applies. */
export type EmailValidationHandler = (trx: Transaction<Database>, row: EmailValidationRow) => Promise<boolean>;

const handlers = new Map<string, EmailValidationHandler>();

/** Says what a confirmed link of `subject` does (e.g. 'contact' marks the contact's email verified). */
export function onEmailValidated(subject: string, handler: EmailValidationHandler) {
  handlers.set(subject, handler);
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
  if (!handlers.has(input.subject)) throw new Error(`email validation: no handler for ${input.subject}`);
  const token = randomBytes(24).toString('base64url');
  const now = Date.now();
  const email = destinationKey('email', input.email);
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('email_validation')
      .set({ used_at: now })
      .where('tenant_id', '=', input.tenant_id)
      .where('subject', '=', input.subject)
      .where('subject_id', '=', input.subject_id)
      .where('used_at', 'is', null)
      .execute();
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
    subject: 'HubLink 邮箱验证',
    body: `${input.purpose}，请在${hours}小时内打开以下链接完成邮箱验证：${link} 。如非本人操作，请忽略。`,
    code: token,
  });
  if (status === 'failed') {
    await ctx.db.deleteFrom('email_validation').where('token_hash', '=', hashToken(token)).execute();
    throw new ApiError(500, M.internalError);
  }
  return token;
}

/**
 * Confirms a link once: unknown, used or superseded links answer '验证链接无效或已使用', old ones
 * '验证链接已过期…'. The link is used up and its subject updated in one transaction; a subject that
 * changed since the mail was sent (another address, deleted) leaves everything as it was.
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
    const handler = handlers.get(row.subject);
    if (!handler || !(await handler(trx, row))) throw invalid(M.validateLinkInvalid);
  });
}
