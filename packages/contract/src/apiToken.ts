import { z } from 'zod';
import { defineEndpoint, noData } from './endpoint';
import { idField, integerField, pageQuery, requiredString } from './fields';
import { LIMITS } from './limits';
import { apiTokenMessages, fmt } from './messages';

/*
 * Personal API tokens (issue 18). A main account creates them in the console; a token is
 * `hlk_` + 43 base64url characters (256 random bits), shown once, stored as its SHA-256. Scope:
 * 'read' (the main account's GET calls, nothing that changes anything) or 'role' (the permissions
 * of one of the tenant's roles, exactly as a sub-account of that role has them, followed live).
 */

/** What every token starts with, so a token is recognisable in a config file and by secret scanners. */
export const API_TOKEN_PREFIX = 'hlk_';
/** Characters of a token shown in the list after it was created: the prefix and the first 8 random ones. */
export const API_TOKEN_SHOWN_CHARS = API_TOKEN_PREFIX.length + 8;
/** The whole token: the prefix and 32 random bytes in base64url. */
export const API_TOKEN_PATTERN = /^hlk_[A-Za-z0-9_-]{43}$/;

export const API_TOKEN_SCOPES = ['read', 'role'] as const;
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];

/** 'active' usable; 'expired' past its expiry; 'role_deleted' its role is gone (revoke it). */
export const API_TOKEN_STATES = ['active', 'expired', 'role_deleted'] as const;
export type ApiTokenState = (typeof API_TOKEN_STATES)[number];

export const apiTokenItem = z.object({
  id: z.number(),
  name: z.string(),
  /** The first characters of the token ('hlk_' and 8 more), to tell tokens apart. */
  prefix: z.string(),
  scope: z.enum(API_TOKEN_SCOPES),
  /** The role of a 'role' token; null for 'read'. */
  role_id: z.number().nullable(),
  /** The role's current name; '' when it was deleted or for 'read'. */
  role_name: z.string(),
  state: z.enum(API_TOKEN_STATES),
  create_time: z.string(),
  expire_time: z.string(),
  /** Last call made with it (written at most once a minute); '' never used. */
  last_used_time: z.string(),
  last_used_ip: z.string(),
});
export type ApiTokenItem = z.infer<typeof apiTokenItem>;

/** GET /api_token/lists: the tenant's tokens that are not revoked, newest first; search matches the name. */
export const listApiTokens = defineEndpoint({
  path: '/api_token/lists',
  method: 'GET',
  access: 'main',
  query: pageQuery,
  response: z.array(apiTokenItem),
  paged: true,
});

const expiryDays = integerField(apiTokenMessages.apiTokenExpiryRequired, 1, Math.max(...LIMITS.apiTokenExpiryDays)).refine(
  (v) => (LIMITS.apiTokenExpiryDays as readonly number[]).includes(v),
  apiTokenMessages.apiTokenExpiryRequired,
);

/** POST /api_token/create: answers the token itself, the only time it is ever shown. */
export const createApiToken = defineEndpoint({
  path: '/api_token/create',
  method: 'POST',
  access: 'main',
  body: z.object({
      name: requiredString(apiTokenMessages.apiTokenNameRequired).max(LIMITS.apiTokenNameMax, fmt(apiTokenMessages.apiTokenNameTooLong, { n: LIMITS.apiTokenNameMax })),
      scope: z.enum(API_TOKEN_SCOPES, { error: apiTokenMessages.apiTokenScopeRequired }),
      /** Required with scope 'role' (the service refuses it missing with apiTokenMessages.apiTokenRoleRequired), ignored with 'read'. */
      role_id: idField(apiTokenMessages.apiTokenRoleRequired).nullish(),
      /** One of LIMITS.apiTokenExpiryDays. */
      expires_days: expiryDays,
    }),
  response: apiTokenItem.extend({ token: z.string() }),
});

/** POST /api_token/revoke: the token stops working at once. */
export const revokeApiToken = defineEndpoint({
  path: '/api_token/revoke',
  method: 'POST',
  access: 'main',
  body: z.object({ id: idField() }),
  response: noData,
});

/** The calls that manage tokens: no token may call them (guard.ts). */
export const API_TOKEN_ENDPOINTS = [listApiTokens, createApiToken, revokeApiToken] as const;
