import { LIMITS, type Endpoint, type UserMessage } from '@hublink/contract';
import { useApiMutation } from '../../api/hooks';
import { mayVisit } from '../../session/guard';
import { useUser } from '../../session/user';

/** LDAP calls wait for the directory: 60 s (spec 3 §7). */
export const LDAP_CALL = { timeoutMs: LIMITS.directoryTimeoutMs } as const;

/** Every LDAP answer, and the member lists: a change of the directory's state can change members. */
const AREA = ['/ldap/', '/router/'];

/** A POST of the area: the directory's time limit; its success toast shows and the area's queries (or `invalidates`) reload. */
export const useLdapMutation = <E extends Endpoint>(endpoint: E, opts: { quiet?: boolean; successToast?: boolean; invalidates?: string[] } = {}) =>
  useApiMutation(endpoint, { ...LDAP_CALL, invalidates: AREA, ...opts });

/**
 * What closing LDAP reloads: the page's state (which then shows the enable tile) and the members, not
 * the listing and the sync status, which would only answer 'LDAP未启用' on their way out.
 */
export const CLOSED = ['/ldap/config', '/ldap/status', '/router/'];

/** What the user may do here, as the server's access decides it (configuration: main accounts; users: the member permissions). */
export interface LdapRights {
  configure: boolean;
  create: boolean;
  edit: boolean;
  delete: boolean;
}

export const ldapRights = (user: UserMessage | null): LdapRights => ({
  configure: mayVisit('main', user),
  create: mayVisit('easylink.router.create', user),
  edit: mayVisit('easylink.router.edit', user),
  delete: mayVisit('easylink.router.delete', user),
});

export const useLdapRights = () => ldapRights(useUser());
