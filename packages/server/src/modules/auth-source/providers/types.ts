import type { AuthSourceType } from '@hublink/contract';
import type { Ctx } from '../../../core/context';

/** The providers' base URLs (configuration). */
export type AuthProviderUrls = Ctx['config']['authProviders'];
/** Where a provider's server API is and how to reach it (the operator's egress proxy, if any). */
export interface ProviderNet {
  urls: AuthProviderUrls;
  proxy: Ctx['config']['outboundProxy'];
}

/** A source as a provider needs it: its app's credentials in the clear (only in memory, only for the call). */
export interface SourceApp {
  type: AuthSourceType;
  app_id: string;
  app_secret: string;
  agent_id: string;
  corp_id: string;
}

/** Who signed in at the provider. */
export interface Identity {
  /** The organisation the user id belongs to (a corp id, a tenant key): ids of another one never match. */
  namespace: string;
  /** The user's stable id in that organisation. */
  userId: string;
  /** What the member's name is made from (the provider's user id as people see it). */
  nameBase: string;
  /** The user's name as the provider shows it ('' when it gives none). */
  displayName: string;
}

/**
 * The provider refused the sign-in, or could not be reached: `message` is for the member (the client
 * shows it), `detail` for the log (error codes, never secrets).
 */
export class ProviderRefusal extends Error {
  constructor(
    message: string,
    readonly detail: string,
  ) {
    super(message);
  }
}

export interface Provider {
  /** The provider's sign-in page for this app, which sends the browser back to `redirectUri` with a code and `state`. */
  authorizeUrl(urls: AuthProviderUrls, app: SourceApp, redirectUri: string, state: string): string;
  /** Exchanges the code for the user's identity through the provider's server API. */
  identify(net: ProviderNet, app: SourceApp, code: string): Promise<Identity>;
}
