import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { AUTH_SOURCE_STATUS, LIMITS, M, type authorizeAuthSource, type authSourceCallback, type AuthSourceType, type LoginSourceItem } from '@hublink/contract';
import { z } from 'zod';
import type { Ctx } from '../../core/context';
import { issueDeviceCredential } from '../../domain/deviceCredentials';
import { issueMemberSession } from '../../core/memberSessions';
import { ApiError, forbidden, invalid, notFound } from '../../core/errors';
import type { Limit } from '../../core/ratelimit';
import { tenantOfCode } from './idCode';
import { boundMember, memberFor } from './members';
import { callbackUrlOf } from './origin';
import { PROVIDERS, ProviderRefusal } from './providers';
import { appOf, ensureFeature, SOURCE_COLUMNS, type SourceRow } from './sources';

/*
 * The sign-in path of a member's client (a native app, RFC 8252, with PKCE, RFC 7636):
 *   1. GET  /auth_source/sources?code=ID        the tenant's enabled sources;
 *   2. GET  /auth_source/authorize?…            302 to the provider, with our own state;
 *   3. GET  /auth_source/callback?code&state    the provider sent the browser back: the code is
 *      exchanged for the user's identity, the member found or created, and the browser sent on to the
 *      client's loopback redirect_uri with a one-time ticket (or an error);
 *   4. POST /auth_source/token {ticket, code_verifier}   the member's login and a device credential.
 * The state and the ticket live in the shared store (Redis with several instances), each for one use.
 *
 * The console's self-service page (issue 30) signs members in the same way, as a browser: it starts
 * at GET /self/authorize (authorizeForPage) with its own PKCE challenge, the callback sends the browser
 * back to the console's `/self` page, an address the server builds from its own origin, and the page
 * redeems the ticket for a member's self-service session (redeemForPage), never a device credential.
 */

/** Per client address: every call of the path, and ID codes that name no tenant (guessing). */
export const LOGIN_LIMITS = {
  perIp: { name: 'auth-source-ip', max: 300, windowSeconds: 900, message: M.tooManyRequests },
  unknownCodePerIp: { name: 'auth-source-code', max: 20, windowSeconds: 900, message: M.tooManyRequests },
} as const satisfies Record<string, Limit>;

type AuthorizeQuery = z.output<typeof authorizeAuthSource.query>;
type CallbackQuery = z.output<typeof authSourceCallback.query>;

const sha256 = (v: string) => createHash('sha256').update(v).digest();
/** Only hashes of states and tickets name keys in the store: reading the store gives neither away. */
const stateKey = (state: string) => `auth-source:state:${sha256(state).toString('hex')}`;
const ticketKey = (ticket: string) => `auth-source:ticket:${sha256(ticket).toString('hex')}`;

/** A sign-in between authorize and callback. */
const pending = z.object({
  tenant_id: z.number(),
  source_id: z.number(),
  redirect_uri: z.string(),
  client_state: z.string(),
  code_challenge: z.string(),
  /** Who began it: a member's client (its loopback redirect_uri) or the console's self-service page. */
  flavour: z.enum(['client', 'page']).default('client'),
});
type Pending = z.infer<typeof pending>;

/** A ticket between callback and token: a client's redeems at /auth_source/token, the page's at /self/ticket. */
const ticketData = z.object({ tenant_id: z.number(), source_id: z.number(), member_id: z.number(), code_challenge: z.string(), flavour: z.enum(['client', 'page']).default('client') });

/** The console's self-service page, where a page sign-in comes back (the web app's route). */
export const SELF_SERVICE_PAGE = '/self';

/** Takes a single-use value out of the store (gone for everyone else at once). */
async function takeJson<S extends z.ZodType>(ctx: Ctx, key: string, schema: S): Promise<z.output<S> | undefined> {
  const raw = await ctx.store.take(key);
  if (raw === null) return undefined;
  return schema.parse(JSON.parse(raw));
}

/** The tenant an ID code names, if it may use sign-in sources; unknown codes count against the address. */
async function tenantByCode(ctx: Ctx, ip: string, code: string): Promise<number> {
  await ctx.limiter.hit(LOGIN_LIMITS.perIp, ip);
  await ctx.limiter.check(LOGIN_LIMITS.unknownCodePerIp, ip);
  const tenantId = await tenantOfCode(ctx, code);
  if (tenantId === undefined) {
    await ctx.limiter.hit(LOGIN_LIMITS.unknownCodePerIp, ip);
    throw notFound(M.authSourceCodeUnknown);
  }
  await ensureFeature(ctx.db, tenantId);
  return tenantId;
}

/** An enabled source of the tenant, else a refusal that says it cannot be used. */
export async function enabledSource(ctx: Ctx, tenantId: number, id: number): Promise<SourceRow> {
  const row = await ctx.db.selectFrom('auth_source').select(SOURCE_COLUMNS).where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
  if (!row || row.status !== AUTH_SOURCE_STATUS.enabled) throw forbidden(M.authSourceUnavailable);
  return row;
}

/** Step 1: the enabled sources of the tenant an ID code names, in the order they were added. */
export async function sourcesFor(ctx: Ctx, ip: string, code: string): Promise<LoginSourceItem[]> {
  const tenantId = await tenantByCode(ctx, ip, code);
  const rows = await ctx.db
    .selectFrom('auth_source')
    .select(['id', 'type', 'name'])
    .where('tenant_id', '=', tenantId)
    .where('status', '=', AUTH_SOURCE_STATUS.enabled)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ id: r.id, type: r.type as AuthSourceType, name: r.name }));
}

/** Step 2: where the browser signs in at the provider; the sign-in is remembered under a new state. */
export async function authorize(ctx: Ctx, ip: string, origin: string, q: AuthorizeQuery, flavour: Pending['flavour'] = 'client'): Promise<string> {
  const tenantId = await tenantByCode(ctx, ip, q.code);
  const source = await enabledSource(ctx, tenantId, q.source);
  // 256 random bits as hex: unguessable, and within enterprise WeChat's 128 characters of [a-zA-Z0-9].
  const state = randomBytes(32).toString('hex');
  const value: Pending = { tenant_id: tenantId, source_id: source.id, redirect_uri: q.redirect_uri, client_state: q.state, code_challenge: q.code_challenge, flavour };
  await ctx.store.set(stateKey(state), JSON.stringify(value), LIMITS.authSourceStateSeconds);
  const app = appOf(ctx, source);
  return PROVIDERS[app.type].authorizeUrl(ctx.config.authProviders, app, callbackUrlOf(origin), state);
}

/** Step 2 for the self-service page: as authorize, coming back to the console's own `/self` page. */
export async function authorizeForPage(ctx: Ctx, ip: string, origin: string, q: Pick<AuthorizeQuery, 'code' | 'source' | 'code_challenge'>): Promise<string> {
  return authorize(ctx, ip, origin, { ...q, redirect_uri: `${origin}${SELF_SERVICE_PAGE}`, state: '', code_challenge_method: 'S256' }, 'page');
}

/** The client's redirect_uri with the answer of the sign-in and the client's state. */
function backToClient(p: Pending, params: Record<string, string>): string {
  const url = new URL(p.redirect_uri);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  if (p.client_state) url.searchParams.set('state', p.client_state);
  return url.toString();
}

/**
 * Step 3: the provider sent the browser back. The state serves once; an unknown or used one is
 * refused here (there is no client to tell). Otherwise the browser goes on to the client with a ticket
 * for the member, or with `error=access_denied` and the reason, which the client shows.
 */
export async function callback(ctx: Ctx, ip: string, q: CallbackQuery): Promise<string> {
  await ctx.limiter.hit(LOGIN_LIMITS.perIp, ip);
  const p = await takeJson(ctx, stateKey(q.state), pending);
  if (!p) throw invalid(M.authSourceLoginExpired);
  try {
    if (q.error) throw new ProviderRefusal(M.authSourceLoginCancelled, `the provider answered error=${q.error}`);
    const code = q.authCode ?? q.code;
    if (!code) throw new ProviderRefusal(M.authSourceCodeInvalid, 'no code in the callback');
    await ensureFeature(ctx.db, p.tenant_id);
    const source = await enabledSource(ctx, p.tenant_id, p.source_id);
    const app = appOf(ctx, source);
    const identity = await PROVIDERS[app.type].identify({ urls: ctx.config.authProviders, proxy: ctx.config.outboundProxy }, app, code);
    const member = await memberFor(ctx, source, identity);
    if (member.status !== 1) throw forbidden(M.authSourceMemberDisabled);
    const ticket = randomBytes(32).toString('base64url');
    const value: z.infer<typeof ticketData> = { tenant_id: p.tenant_id, source_id: source.id, member_id: member.id, code_challenge: p.code_challenge, flavour: p.flavour };
    await ctx.store.set(ticketKey(ticket), JSON.stringify(value), LIMITS.authSourceTicketSeconds);
    return backToClient(p, { ticket });
  } catch (e) {
    if (e instanceof ProviderRefusal) {
      ctx.log.info({ tenantId: p.tenant_id, sourceId: p.source_id, detail: e.detail }, 'auth source: sign-in refused');
      return backToClient(p, { error: 'access_denied', error_description: e.message });
    }
    if (e instanceof ApiError) return backToClient(p, { error: 'access_denied', error_description: e.message });
    throw e;
  }
}

/** PKCE S256 (RFC 7636 §4.6): the challenge is base64url(SHA-256(verifier)). */
function verifierMatches(verifier: string, challenge: string): boolean {
  const computed = Buffer.from(sha256(verifier).toString('base64url'));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

/**
 * Step 4: the ticket (once, whatever the outcome: a wrong verifier burns it) and the verifier of the
 * challenge the sign-in began with give the member's login and a new device credential.
 */
export async function redeem(ctx: Ctx, ip: string, ticket: string, verifier: string): Promise<{ login: string; credential: string }> {
  const { t, member } = await ticketMember(ctx, ip, ticket, verifier, 'client');
  const account = await ctx.db.selectFrom('account').select('sign').where('id', '=', t.tenant_id).executeTakeFirstOrThrow();
  const credential = await issueDeviceCredential(ctx, { id: member.id, tenant_id: t.tenant_id });
  return { login: `${member.router_name}@${account.sign}`, credential };
}

/** The ticket (taken once, whatever the outcome) of a sign-in of this flavour, and its member, still enabled. */
async function ticketMember(ctx: Ctx, ip: string, ticket: string, verifier: string, flavour: Pending['flavour']) {
  await ctx.limiter.hit(LOGIN_LIMITS.perIp, ip);
  const t = await takeJson(ctx, ticketKey(ticket), ticketData);
  // A client's ticket opens no page session, a page's gives no device credential.
  if (!t || t.flavour !== flavour) throw invalid(M.authSourceTicketInvalid);
  if (!verifierMatches(verifier, t.code_challenge)) throw invalid(M.authSourceVerifierWrong);
  await ensureFeature(ctx.db, t.tenant_id);
  await enabledSource(ctx, t.tenant_id, t.source_id);
  const member = await boundMember(ctx.db, t.source_id, t.member_id);
  if (member.status !== 1) throw forbidden(M.authSourceMemberDisabled);
  return { t, member };
}

/** Step 4 of the self-service page: the ticket and the page's verifier give a member's self-service session. */
export async function redeemForPage(ctx: Ctx, ip: string, ticket: string, verifier: string) {
  const { t, member } = await ticketMember(ctx, ip, ticket, verifier, 'page');
  return issueMemberSession(ctx, { tenant_id: t.tenant_id, id: member.id });
}
