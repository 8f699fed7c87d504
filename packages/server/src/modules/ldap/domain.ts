import { timingSafeEqual } from 'node:crypto';
import dns from 'node:dns';
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
 * core/outbound.ts). Or (issue 33) the tenant publishes the same token as a TXT record at
 * _hublink-verify.<domain>, which the server reads through its resolvers (config.ldapVerifyDns). A
 * save with a domain not proven answers 423 with the file's name and the TXT record to publish.
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

/** Where the TXT record of the proof lives: a name of its own, so the domain's other TXT records stay as they are. */
export const verifyTxtName = (domain: string) => `_hublink-verify.${domain.toLowerCase()}`;

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
  const token = verifyToken(ctx, tenantId, domain);
  throw new ApiError(CODE.furtherAction, M.ldapDomainUnverified, { file_name: verifyFileName(token), txt_name: verifyTxtName(domain), txt_value: token });
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

/** How long the TXT question may take in all (each server, each try). */
const TXT_TIMEOUT_MS = 3_000;
const TXT_TRIES = 2;

/**
 * The TXT records at `name` (each record's strings joined, as RFC 7208 reads a long value), [] when the
 * name has none or does not exist, null when the resolvers could not answer.
 */
async function txtRecords(ctx: Ctx, name: string): Promise<string[] | null> {
  const resolver = new dns.promises.Resolver({ timeout: TXT_TIMEOUT_MS, tries: TXT_TRIES });
  if (ctx.config.ldapVerifyDns.length > 0) resolver.setServers(ctx.config.ldapVerifyDns);
  try {
    return (await resolver.resolveTxt(name)).map((chunks) => chunks.join(''));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === dns.NODATA || code === dns.NOTFOUND) return [];
    ctx.log.info({ name, code }, 'ldap: the domain verification TXT record could not be read');
    return null;
  }
}

/** The file on the domain's site: null when it holds the token, else the refusal to answer. */
async function fileRefusal(ctx: Ctx, tenantId: number, domain: string, token: string): Promise<ApiError | null> {
  const url = ctx.config.ldapVerifyUrl.replaceAll('{domain}', domain).replaceAll('{file}', verifyFileName(token));
  try {
    const res = await outboundRequest(ctx.config, { url, timeoutMs: LIMITS.requestTimeoutMs, maxBytes: FILE_MAX_BYTES });
    if (res.status !== 200) return invalid(fmt(M.ldapDomainFileMissing, { url }));
    return sameText(res.body.toString('utf8').trim(), token) ? null : invalid(M.ldapDomainFileWrong);
  } catch (err) {
    if (err instanceof OutboundError) {
      ctx.log.info({ tenantId, domain, reason: err.message }, 'ldap: the domain verification file could not be fetched');
      return invalid(fmt(M.ldapDomainUnreachable, { reason: REASONS[err.reason] }));
    }
    throw err;
  }
}

/**
 * POST /ldap/verify_domain: the tenant's token in a TXT record at _hublink-verify.<domain>, or in the
 * file on the domain's site, proves the domain the tenant's. The TXT record is asked first (one DNS
 * question); without it the file is fetched. When neither holds the token, the refusal is the file's,
 * unless the TXT name holds records (the tenant chose DNS): then it is that the record is wrong.
 */
export async function verifyDomain(ctx: Ctx, actor: Actor, domain: string): Promise<void> {
  await ctx.limiter.hit(CONNECTIONS_PER_TENANT, `t${actor.tenantId}`);
  const key = domain.toLowerCase();
  if (await proven(ctx, actor.tenantId, key)) return;
  const token = verifyToken(ctx, actor.tenantId, key);
  const txt = await txtRecords(ctx, verifyTxtName(key));
  if (!txt?.some((value) => sameText(value.trim(), token))) {
    const refusal = await fileRefusal(ctx, actor.tenantId, key, token);
    if (refusal) throw txt && txt.length > 0 ? invalid(fmt(M.ldapDomainTxtWrong, { name: verifyTxtName(key) })) : refusal;
  }
  const now = Date.now();
  // A row an earlier release made for a domain it only named (verify_time null) becomes the proof.
  await ctx.db
    .insertInto('ldap_domain')
    .values({ tenant_id: actor.tenantId, domain: key, token, verify_time: now, create_time: now })
    .onConflict((oc) => oc.columns(['tenant_id', 'domain']).doUpdateSet({ token, verify_time: now }))
    .execute();
}
