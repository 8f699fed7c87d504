import { randomBytes } from 'node:crypto';
import { CODE, fmt, LIMITS, M } from '@hublink/contract';
import type { Actor } from '../../core/actor';
import type { Ctx } from '../../core/context';
import { ApiError, invalid } from '../../core/errors';
import { FileAnswer } from '../../core/http';
import { OutboundError, outboundRequest, type OutboundFailure } from '../../core/outbound';
import type { Db } from '../../db/connect';
import { CONNECTIONS_PER_TENANT } from './state';

/*
 * Proof that a tenant owns the domain it names for its directory (spec 3 §4): the server gives it a
 * file whose content is a random token of that tenant and domain, the tenant places it on the
 * domain's web site, and the server fetches it back (config.ldapVerifyUrl, with the outbound rules of
 * core/outbound.ts). A save with a domain not proven this way answers 423 with the file's name.
 */

const TOKEN_BYTES = 32;
/** Domains a tenant may have named and not proven; beyond them the oldest such token goes. */
const UNPROVEN_MAX = 20;
/** The verification file's content, at most (the token and a line break or two). */
const FILE_MAX_BYTES = 1024;

/** The file's name: the same for the tenant and domain until its token changes, and unlike any other's. */
export const verifyFileName = (token: string) => `hublink-verify-${token.slice(0, 12)}.txt`;

/** The tenant's token row for a domain, made on first use (a unique index decides a race). */
async function tokenOf(db: Db, tenantId: number, domain: string) {
  const find = () => db.selectFrom('ldap_domain').select(['id', 'token', 'verify_time']).where('tenant_id', '=', tenantId).where('domain', '=', domain).executeTakeFirst();
  const found = await find();
  if (found) return found;
  await db
    .insertInto('ldap_domain')
    .values({ tenant_id: tenantId, domain, token: randomBytes(TOKEN_BYTES).toString('hex'), verify_time: null, create_time: Date.now() })
    .onConflict((oc) => oc.columns(['tenant_id', 'domain']).doNothing())
    .execute();
  const row = (await find())!;
  const unproven = await db
    .selectFrom('ldap_domain')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('verify_time', 'is', null)
    .orderBy('id', 'desc')
    .offset(UNPROVEN_MAX)
    .limit(1000)
    .execute();
  if (unproven.length > 0) {
    await db
      .deleteFrom('ldap_domain')
      .where(
        'id',
        'in',
        unproven.map((u) => u.id),
      )
      .execute();
  }
  return row;
}

/** Refuses a domain the tenant has not proven with 423 and the file to place (a save's last rule before connecting). */
export async function ensureDomainVerified(db: Db, tenantId: number, domain: string): Promise<void> {
  const row = await tokenOf(db, tenantId, domain);
  if (row.verify_time === null) throw new ApiError(CODE.furtherAction, M.ldapDomainUnverified, { file_name: verifyFileName(row.token) });
}

/** GET /ldap/download_verify_domain: the file, named as the 423 said. */
export async function verifyFile(ctx: Ctx, actor: Actor, domain: string): Promise<FileAnswer> {
  const row = await tokenOf(ctx.db, actor.tenantId, domain);
  return new FileAnswer(verifyFileName(row.token), 'text/plain; charset=utf-8', Buffer.from(`${row.token}\n`));
}

const REASONS: Record<OutboundFailure, string> = {
  invalid_url: M.ldapReasonUrl,
  private_address: M.ldapReasonPrivate,
  dns: M.ldapReasonDns,
  connect: M.ldapReasonConnect,
  timeout: M.ldapReasonTimeout,
  too_large: M.ldapReasonTooLarge,
  tls: M.ldapReasonTls,
};

/** POST /ldap/verify_domain: fetches the file from the domain; its token proves the domain the tenant's. */
export async function verifyDomain(ctx: Ctx, actor: Actor, domain: string): Promise<void> {
  await ctx.limiter.hit(CONNECTIONS_PER_TENANT, `t${actor.tenantId}`);
  const row = await tokenOf(ctx.db, actor.tenantId, domain);
  if (row.verify_time !== null) return;
  const url = ctx.config.ldapVerifyUrl.replaceAll('{domain}', domain).replaceAll('{file}', verifyFileName(row.token));
  let body: string;
  try {
    const res = await outboundRequest(ctx.config, { url, timeoutMs: LIMITS.requestTimeoutMs, maxBytes: FILE_MAX_BYTES });
    if (res.status !== 200) throw invalid(fmt(M.ldapDomainFileMissing, { url }));
    body = res.body.toString('utf8').trim();
  } catch (err) {
    if (err instanceof OutboundError) {
      ctx.log.info({ tenantId: actor.tenantId, domain, reason: err.message }, 'ldap: the domain verification file could not be fetched');
      throw invalid(fmt(M.ldapDomainUnreachable, { reason: REASONS[err.reason] }));
    }
    throw err;
  }
  if (body !== row.token) throw invalid(M.ldapDomainFileWrong);
  await ctx.db.updateTable('ldap_domain').set({ verify_time: Date.now() }).where('id', '=', row.id).execute();
}
