import { timingSafeEqual } from 'node:crypto';
import { CODE, fmt, LIMITS, M } from '@hublink/contract';
import type { Actor } from '../../core/actor';
import type { Ctx } from '../../core/context';
import { ApiError, invalid } from '../../core/errors';
import { FileAnswer } from '../../core/http';
import { OutboundError, outboundRequest, type OutboundFailure } from '../../core/outbound';
import { CONNECTIONS_PER_TENANT } from './state';

/*
 * Proof that a tenant owns the domain it names for its directory (spec 3 §4): the server gives it a
 * file whose content is the token of that tenant and domain, the tenant places it on the domain's web
 * site, and the server fetches it back (config.ldapVerifyUrl, with the outbound rules of
 * core/outbound.ts). A save with a domain not proven this way answers 423 with the file's name.
 *
 * The token is a MAC of tenant and domain under the server's secret key (core/secretBox.ts), not a
 * stored random value: the download (a GET, which a read-only API token may call) computes it and
 * writes nothing, so no call can rotate the file an administrator has already placed. Only a proof
 * writes: its row in ldap_domain, with the token the file held (docs/decisions.md, "Domain
 * verification tokens").
 */

/** The verification file's content, at most (the token and a line break or two). */
const FILE_MAX_BYTES = 1024;

/** The file's content for a tenant and domain: the same every time, another tenant's or domain's unlike it. */
export const verifyToken = (ctx: Pick<Ctx, 'secretBox'>, tenantId: number, domain: string): string =>
  ctx.secretBox.mac('ldap-domain-verification', `${tenantId}\n${domain.toLowerCase()}`);

/** The file's name: the same for the tenant and domain, and unlike any other's. */
export const verifyFileName = (token: string) => `hublink-verify-${token.slice(0, 12)}.txt`;

/** Whether the tenant has proven the domain. */
async function proven(ctx: Pick<Ctx, 'db'>, tenantId: number, domain: string): Promise<boolean> {
  const row = await ctx.db
    .selectFrom('ldap_domain')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('domain', '=', domain.toLowerCase())
    .where('verify_time', 'is not', null)
    .executeTakeFirst();
  return row !== undefined;
}

/** Refuses a domain the tenant has not proven with 423 and the file to place (a save's last rule before connecting). */
export async function ensureDomainVerified(ctx: Pick<Ctx, 'db' | 'secretBox'>, tenantId: number, domain: string): Promise<void> {
  if (await proven(ctx, tenantId, domain)) return;
  throw new ApiError(CODE.furtherAction, M.ldapDomainUnverified, { file_name: verifyFileName(verifyToken(ctx, tenantId, domain)) });
}

/** GET /ldap/download_verify_domain: the file, named as the 423 said; computed, so the download writes nothing. */
export function verifyFile(ctx: Ctx, actor: Actor, domain: string): FileAnswer {
  const token = verifyToken(ctx, actor.tenantId, domain);
  return new FileAnswer(verifyFileName(token), 'text/plain; charset=utf-8', Buffer.from(`${token}\n`));
}

const sameText = (a: string, b: string) => {
  const [x, y] = [Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')];
  return x.length === y.length && timingSafeEqual(x, y);
};

const REASONS: Record<OutboundFailure, string> = {
  invalid_url: M.ldapReasonUrl,
  private_address: M.ldapReasonPrivate,
  dns: M.ldapReasonDns,
  connect: M.ldapReasonConnect,
  timeout: M.ldapReasonTimeout,
  too_large: M.ldapReasonTooLarge,
  tls: M.ldapReasonTls,
};

/** POST /ldap/verify_domain: fetches the file from the domain; the tenant's token in it proves the domain the tenant's. */
export async function verifyDomain(ctx: Ctx, actor: Actor, domain: string): Promise<void> {
  await ctx.limiter.hit(CONNECTIONS_PER_TENANT, `t${actor.tenantId}`);
  const key = domain.toLowerCase();
  if (await proven(ctx, actor.tenantId, key)) return;
  const token = verifyToken(ctx, actor.tenantId, key);
  const url = ctx.config.ldapVerifyUrl.replaceAll('{domain}', key).replaceAll('{file}', verifyFileName(token));
  let body: string;
  try {
    const res = await outboundRequest(ctx.config, { url, timeoutMs: LIMITS.requestTimeoutMs, maxBytes: FILE_MAX_BYTES });
    if (res.status !== 200) throw invalid(fmt(M.ldapDomainFileMissing, { url }));
    body = res.body.toString('utf8').trim();
  } catch (err) {
    if (err instanceof OutboundError) {
      ctx.log.info({ tenantId: actor.tenantId, domain: key, reason: err.message }, 'ldap: the domain verification file could not be fetched');
      throw invalid(fmt(M.ldapDomainUnreachable, { reason: REASONS[err.reason] }));
    }
    throw err;
  }
  if (!sameText(body, token)) throw invalid(M.ldapDomainFileWrong);
  const now = Date.now();
  // A row an earlier release made for a domain it only named (verify_time null) becomes the proof.
  await ctx.db
    .insertInto('ldap_domain')
    .values({ tenant_id: actor.tenantId, domain: key, token, verify_time: now, create_time: now })
    .onConflict((oc) => oc.columns(['tenant_id', 'domain']).doUpdateSet({ token, verify_time: now }))
    .execute();
}
