import { z } from 'zod';
import { authorizeAuthSource, authSourceToken } from './authSource';
import { defineEndpoint, noData } from './endpoint';
import { requiredString } from './fields';
import { LIMITS } from './limits';
import { CM, SM } from './messages';
import { networkNumberField } from './network';
import { ovpnFile } from './networkConfig';

/*
 * A member's self-service page (issue 30, docs/clients.md): a software member signs in with its own
 * login (name@sign or its bound phone; its password, or its directory password) or the tenant's
 * WeCom/Feishu/DingTalk source, and gets its own profiles and a single-use link for a phone. The
 * session is a member's, not an account's: the 'member' calls read only that member's profiles.
 */

/** A member's self-service session: the bearer token of the 'member' calls, and its life in seconds. */
export const selfSessionAnswer = z.object({ token: z.string(), expires_in: z.number() });
export type SelfSession = z.infer<typeof selfSessionAnswer>;

/** POST /self/login: name@sign or the bound phone, and the password; failures count as the clients' do. */
export const selfLogin = defineEndpoint({
  path: '/self/login',
  method: 'POST',
  access: 'public',
  body: z.object({
    login: requiredString(SM.selfLoginRequired).trim().min(1, SM.selfLoginRequired).max(LIMITS.selfLoginMax, CM.clientWrongPassword),
    password: z.string({ error: SM.selfPasswordRequired }).min(1, SM.selfPasswordRequired).max(LIMITS.selfPasswordMax, CM.clientWrongPassword),
  }),
  response: selfSessionAnswer,
});

/**
 * GET /self/authorize, opened in the browser: 302 to the provider's sign-in page of one of the tenant's
 * sources (the ID code names the tenant). The provider's answer comes back to the console's own
 * self-service page (`/self?ticket=…`), never to an address the caller gives.
 */
export const selfAuthorize = defineEndpoint({
  path: '/self/authorize',
  method: 'GET',
  access: 'public',
  query: authorizeAuthSource.query.pick({ code: true, source: true, code_challenge: true }),
  response: { redirect: "the provider's sign-in page" },
});

/** POST /self/ticket: the page redeems the ticket of a source sign-in, with its PKCE verifier, for a session. */
export const selfTicket = defineEndpoint({
  path: '/self/ticket',
  method: 'POST',
  access: 'public',
  body: authSourceToken.body,
  response: selfSessionAnswer,
});

/** GET /self/profiles: who signed in and its networks, each with a profile. */
export const selfProfiles = defineEndpoint({
  path: '/self/profiles',
  method: 'GET',
  access: 'member',
  response: z.object({
    router_name: z.string(),
    /** What the person types in a client: `name@sign` (or the phone it bound). */
    login: z.string(),
    phone: z.string(),
    networks: z.array(z.object({ network_number: z.string(), network_name: z.string() })),
  }),
});
export type SelfProfiles = z.infer<(typeof selfProfiles)['response']>;

const selfNetworkQuery = z.object({ network_number: networkNumberField });

/** GET /self/profile: the member's own .ovpn for one of its networks. */
export const selfProfile = defineEndpoint({
  path: '/self/profile',
  method: 'GET',
  access: 'member',
  query: selfNetworkQuery,
  response: ovpnFile,
});

/**
 * POST /self/link: a single-use link to the member's profile for one network (LIMITS.selfLinkSeconds),
 * for a phone: `url` opens in a browser or OpenVPN Connect's import from URL, `import_url` is
 * OpenVPN Connect's own form (openvpn://import-profile/<url>).
 */
export const selfProfileLink = defineEndpoint({
  path: '/self/link',
  method: 'POST',
  access: 'member',
  body: selfNetworkQuery,
  response: z.object({ url: z.string(), import_url: z.string(), expires_in: z.number() }),
});
export type SelfProfileLink = z.infer<(typeof selfProfileLink)['response']>;

/** GET /self/download: the profile a link names, once; a used or expired link is refused. */
export const selfDownload = defineEndpoint({
  path: '/self/download',
  method: 'GET',
  access: 'public',
  query: z.object({ token: requiredString(SM.selfLinkInvalid).max(128, SM.selfLinkInvalid) }),
  response: ovpnFile,
});

/** POST /self/logout: ends the member's self-service session. */
export const selfLogout = defineEndpoint({
  path: '/self/logout',
  method: 'POST',
  access: 'member',
  response: noData,
});
