import { z } from 'zod';
import { defineEndpoint, noData } from './endpoint';
import { idField, pageQuery, plainText, requiredString } from './fields';
import { LIMITS } from './limits';
import { BM, CM, authSourceMessages, fmt } from './messages';

// Third-party sign-in sources (spec 3 §2 "/router/auth_source", §3, §4, §5, §7): a tenant connects its
// enterprise WeChat, Feishu or DingTalk app; its members sign in to the client with that account.

export const AUTH_SOURCE_TYPES = ['wechat', 'feishu', 'dingtalk'] as const;
export type AuthSourceType = (typeof AUTH_SOURCE_TYPES)[number];

/** status of spec 3 §3: 0 disabled, otherwise enabled. */
export const AUTH_SOURCE_STATUS = { disabled: 0, enabled: 1 } as const;

/** The name of each type as the console shows it. */
export const AUTH_SOURCE_TYPE_LABELS: Record<AuthSourceType, string> = {
  wechat: authSourceMessages.authSourceTypeWechat,
  feishu: authSourceMessages.authSourceTypeFeishu,
  dingtalk: authSourceMessages.authSourceTypeDingtalk,
};

/** App ids, secrets and corp ids as the open platforms issue them: visible ASCII, no spaces. */
const VISIBLE_ASCII = /^[\x21-\x7e]+$/;

const visibleField = (required: string, invalid: string, max: number) =>
  requiredString(required)
    .max(max, fmt(invalid, { n: max }))
    .regex(VISIBLE_ASCII, fmt(invalid, { n: max }));

/** Every field of the create/edit form with its rules; the console's form rules come from here too. */
export const authSourceFields = z.object({
  type: z.enum(AUTH_SOURCE_TYPES, { error: authSourceMessages.authSourceTypeRequired }),
  name: requiredString(authSourceMessages.authSourceNameRequired).max(LIMITS.authSourceNameMax, fmt(authSourceMessages.authSourceNameTooLong, { n: LIMITS.authSourceNameMax })),
  app_id: visibleField(authSourceMessages.authSourceAppIdRequired, authSourceMessages.authSourceAppIdInvalid, LIMITS.authSourceAppIdMax),
  app_secret: z
    .string({ error: authSourceMessages.authSourceAppSecretRequired })
    .trim()
    .min(1, authSourceMessages.authSourceAppSecretRequired)
    .max(LIMITS.authSourceAppSecretMax, fmt(authSourceMessages.authSourceAppSecretInvalid, { n: LIMITS.authSourceAppSecretMax }))
    .regex(VISIBLE_ASCII, fmt(authSourceMessages.authSourceAppSecretInvalid, { n: LIMITS.authSourceAppSecretMax })),
  /** Enterprise WeChat only: the application's AgentId. */
  agent_id: requiredString(authSourceMessages.authSourceAgentIdRequired)
    .max(LIMITS.authSourceAgentIdMax, fmt(authSourceMessages.authSourceAgentIdInvalid, { n: LIMITS.authSourceAgentIdMax }))
    .regex(/^\d+$/, fmt(authSourceMessages.authSourceAgentIdInvalid, { n: LIMITS.authSourceAgentIdMax })),
  /** DingTalk only: the organisation's CorpId, checked at every sign-in. */
  corp_id: visibleField(authSourceMessages.authSourceCorpIdRequired, authSourceMessages.authSourceCorpIdInvalid, LIMITS.authSourceCorpIdMax),
});

const { type, name, app_id, app_secret, agent_id, corp_id } = authSourceFields.shape;

/** The field each type needs besides the common ones (spec 3 §5: the payload holds it for that type only). */
const TYPE_FIELD = { wechat: 'agent_id', dingtalk: 'corp_id' } as const satisfies Partial<Record<AuthSourceType, keyof typeof authSourceFields.shape>>;

/** The fields of create and edit; agent_id and corp_id are checked by the type that has them (below). */
const sourceBody = z.object({ type, name, app_id, app_secret, agent_id: z.unknown().optional(), corp_id: z.unknown().optional() });

type SourceBody = z.output<typeof sourceBody>;

/** agent_id and corp_id are checked only for the type that has them; another type's leftovers never block a save. */
function checkTypeField(v: SourceBody, ctx: z.RefinementCtx) {
  const field = (TYPE_FIELD as Partial<Record<AuthSourceType, 'agent_id' | 'corp_id'>>)[v.type];
  if (!field) return;
  const r = authSourceFields.shape[field].safeParse(v[field]);
  if (!r.success) ctx.addIssue({ code: 'custom', path: [field], message: r.error.issues[0]?.message ?? BM.validationFailed });
}

/** Keeps agent_id for wechat and corp_id for dingtalk, trimmed; '' otherwise. */
const keepTypeField = <V extends SourceBody>(v: V) => ({
  ...v,
  agent_id: v.type === 'wechat' ? (agent_id.safeParse(v.agent_id).data ?? '') : '',
  corp_id: v.type === 'dingtalk' ? (corp_id.safeParse(v.corp_id).data ?? '') : '',
});

/** A source as the list gives it; the secret is never in a list. */
export const authSourceItem = z.object({
  id: z.number(),
  type: z.enum(AUTH_SOURCE_TYPES),
  name: z.string(),
  app_id: z.string(),
  /** '' unless wechat. */
  agent_id: z.string(),
  /** '' unless dingtalk. */
  corp_id: z.string(),
  /** 0 disabled, 1 enabled. */
  status: z.number(),
  create_time: z.string(),
});
export type AuthSourceItem = z.infer<typeof authSourceItem>;

/** A source as the info call gives it: the secret masked (sending the mask back on edit keeps it). */
export const authSourceDetail = authSourceItem.extend({ app_secret: z.string() });
export type AuthSourceDetail = z.infer<typeof authSourceDetail>;

/**
 * The mask the info call shows for a secret: a fixed run of '*' that says one is set and nothing of it
 * (issue 32: no part of a secret is answered); sent back unchanged, it keeps the stored one.
 */
export const maskSecret = (secret: string) => (secret ? '*'.repeat(12) : '');

/** What a type needs on the provider's side, read-only in the form (spec 3 §3 "white_ip and auth_domain"). */
export const authSourceDefaults = z.object({
  /** The server's egress addresses the provider must trust ('' when the operator has not set them). */
  white_ip: z.string(),
  /** Where the provider sends the user back: a host for wechat, the callback URL for the others. */
  auth_domain: z.string(),
});
export type AuthSourceDefaults = z.infer<typeof authSourceDefaults>;

/** GET /auth_source/code: the tenant's ID code (created on first use), the type options and the defaults per type. */
export const authSourceCode = defineEndpoint({
  path: '/auth_source/code',
  method: 'GET',
  access: 'user',
  response: z.object({
    code: z.string(),
    config: z.object({
      type: z.array(z.object({ value: z.enum(AUTH_SOURCE_TYPES), label: z.string() })),
      default: z.object({ wechat: authSourceDefaults, feishu: authSourceDefaults, dingtalk: authSourceDefaults }),
    }),
  }),
});

/** GET /auth_source/lists: the tenant's sources, newest first; search matches the name or the app id. */
export const listAuthSources = defineEndpoint({
  path: '/auth_source/lists',
  method: 'GET',
  access: 'user',
  query: pageQuery,
  response: z.array(authSourceItem),
  paged: true,
});

const sourceId = idField(authSourceMessages.authSourceNotFound);

export const authSourceInfo = defineEndpoint({
  path: '/auth_source/info',
  method: 'GET',
  access: 'user',
  query: z.object({ id: sourceId }),
  response: authSourceDetail,
});

/** POST /auth_source/create: a new source starts enabled. */
export const createAuthSource = defineEndpoint({
  path: '/auth_source/create',
  method: 'POST',
  access: 'main',
  body: sourceBody.superRefine(checkTypeField).transform(keepTypeField),
  response: z.object({ id: z.number() }),
});

/** POST /auth_source/edit: the type cannot change; the secret's mask as the info call gave it keeps the secret. */
export const editAuthSource = defineEndpoint({
  path: '/auth_source/edit',
  method: 'POST',
  access: 'main',
  body: sourceBody.extend({ id: sourceId }).superRefine(checkTypeField).transform(keepTypeField),
  response: noData,
});

const byId = z.object({ id: sourceId });

export const enableAuthSource = defineEndpoint({ path: '/auth_source/enable', method: 'POST', access: 'main', body: byId, response: noData });

/** POST /auth_source/disable: no new sign-ins through it; its members lose their credentials and sessions. */
export const disableAuthSource = defineEndpoint({ path: '/auth_source/disable', method: 'POST', access: 'main', body: byId, response: noData });

/** POST /auth_source/delete: cannot be undone; the members it created are deleted with it. */
export const deleteAuthSource = defineEndpoint({ path: '/auth_source/delete', method: 'POST', access: 'main', body: byId, response: noData });

// ---- the sign-in path of a member's client (public; the client is a native app, RFC 8252) ----

/** The ID code as a member types it: spaces and dashes are ignored, letters in either case. */
export const normalizeIdCode = (v: string) => v.replace(/[\s-]/g, '').toUpperCase();

const idCodeField = requiredString(authSourceMessages.authSourceCodeRequired).max(32, authSourceMessages.authSourceCodeUnknown).transform(normalizeIdCode);

/**
 * A redirect URI a native client may use (RFC 8252 §7.3): http to an IP loopback literal, any port,
 * no credentials and no fragment. 'localhost' is refused (§8.3: it may not resolve to the loopback).
 */
export function isLoopbackRedirect(v: string): boolean {
  if (v.includes('#')) return false;
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    return false;
  }
  return u.protocol === 'http:' && (u.hostname === '127.0.0.1' || u.hostname === '[::1]') && !u.username && !u.password;
}

/** An enabled source of a tenant as a member's client lists them. */
export const loginSourceItem = z.object({ id: z.number(), type: z.enum(AUTH_SOURCE_TYPES), name: z.string() });
export type LoginSourceItem = z.infer<typeof loginSourceItem>;

/** GET /auth_source/sources: the enabled sources of the tenant an ID code names. */
export const loginSources = defineEndpoint({
  path: '/auth_source/sources',
  method: 'GET',
  access: 'public',
  query: z.object({ code: idCodeField }),
  response: z.array(loginSourceItem),
});

/**
 * GET /auth_source/authorize, opened in the member's browser: 302 to the provider's sign-in page. The
 * client keeps `state` and the PKCE verifier of `code_challenge` (S256) to itself.
 */
export const authorizeAuthSource = defineEndpoint({
  path: '/auth_source/authorize',
  method: 'GET',
  access: 'public',
  query: z.object({
    code: idCodeField,
    source: idField(authSourceMessages.authSourceUnavailable),
    redirect_uri: requiredString(authSourceMessages.authSourceRedirectInvalid).max(LIMITS.authSourceRedirectUriMax, authSourceMessages.authSourceRedirectInvalid).refine(isLoopbackRedirect, authSourceMessages.authSourceRedirectInvalid),
    state: plainText(fmt(authSourceMessages.authSourceStateInvalid, { n: LIMITS.authSourceClientStateMax }))
      .max(LIMITS.authSourceClientStateMax, fmt(authSourceMessages.authSourceStateInvalid, { n: LIMITS.authSourceClientStateMax }))
      .default(''),
    code_challenge: z.string({ error: authSourceMessages.authSourceChallengeInvalid }).regex(/^[A-Za-z0-9_-]{43}$/, authSourceMessages.authSourceChallengeInvalid),
    code_challenge_method: z.literal('S256', { error: authSourceMessages.authSourceChallengeInvalid }).default('S256'),
  }),
  response: { redirect: "the provider's sign-in page" },
});

/** The small page a person's browser ends on after a standard client's web sign-in. */
export const WEB_SIGN_IN_PAGE_TYPE = 'text/html; charset=utf-8';

/**
 * GET /auth_source/callback, where the provider sends the browser back (code and state; DingTalk also
 * authCode; a refusal carries error): 302 to the client's redirect_uri with `ticket` and `state`, or
 * with `error` and `error_description` when the sign-in failed. A state that is unknown or used is
 * answered here, as an envelope: there is no client to send it to.
 */
export const authSourceCallback = defineEndpoint({
  path: '/auth_source/callback',
  method: 'GET',
  access: 'public',
  query: z.object({
    state: requiredString(authSourceMessages.authSourceLoginExpired).max(128, authSourceMessages.authSourceLoginExpired),
    code: plainText(authSourceMessages.authSourceCodeInvalid).max(512, authSourceMessages.authSourceCodeInvalid).optional(),
    authCode: plainText(authSourceMessages.authSourceCodeInvalid).max(512, authSourceMessages.authSourceCodeInvalid).optional(),
    error: plainText(authSourceMessages.authSourceLoginCancelled).max(256, authSourceMessages.authSourceLoginCancelled).optional(),
  }),
  // A standard client's web sign-in (vpnWebSignIn) ends on a page instead.
  response: { redirect: "the client's redirect_uri with ticket and state, or error and error_description", file: WEB_SIGN_IN_PAGE_TYPE },
});

/**
 * GET /auth_source/vpn?token=…, the address a center gives a standard OpenVPN client of a member of a
 * sign-in source (OpenVPN's WEB_AUTH, issue 30). The token (one use, LIMITS.vpnWebSignInSeconds) names
 * the client's pending connection: 302 to the member's provider, whose callback (authSourceCallback)
 * admits or refuses the connection and shows the person a page. An unknown or used token: a page.
 */
export const vpnWebSignIn = defineEndpoint({
  path: '/auth_source/vpn',
  method: 'GET',
  access: 'public',
  query: z.object({ token: z.string({ error: CM.webSignInExpired }).regex(/^[A-Za-z0-9_-]{43}$/, CM.webSignInExpired) }),
  response: { redirect: "the member's provider's sign-in page", file: WEB_SIGN_IN_PAGE_TYPE },
});

/**
 * POST /auth_source/token: the client redeems the ticket with its PKCE verifier for the member's login
 * ('username@sign') and a device credential the gateway takes in the hello. A ticket serves once.
 */
export const authSourceToken = defineEndpoint({
  path: '/auth_source/token',
  method: 'POST',
  access: 'public',
  body: z.object({
    ticket: requiredString(authSourceMessages.authSourceTicketInvalid).max(128, authSourceMessages.authSourceTicketInvalid),
    code_verifier: z.string({ error: authSourceMessages.authSourceVerifierInvalid }).regex(/^[A-Za-z0-9._~-]{43,128}$/, authSourceMessages.authSourceVerifierInvalid),
  }),
  response: z.object({ login: z.string(), credential: z.string() }),
});
