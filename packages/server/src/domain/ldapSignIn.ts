import { LIMITS } from '@hublink/contract';
import type { Ctx } from '../core/context';
import { routerVia } from './directoryRelay';
import { DirectoryError, withDirectory, type DirectoryServer } from './ldap';
import { directoryKindOf } from './ldapUsers';

/*
 * A tenant's saved directory as the server connects to it, and the sign-in of a member imported from
 * it: such a member has no password of its own (its secret_hash is NO_LOCAL_SECRET); the device
 * gateway asks the directory instead, by binding as the user's DN with the password the device gave.
 */

/** The secret_hash of a member imported from the directory: no password opens it (core/passwords.ts). */
export const NO_LOCAL_SECRET = 'directory';

/** What a saved configuration says about the connection. */
export interface StoredConnection {
  tenant_id: number;
  host: string;
  port: number;
  use_ssl: number;
  use_tls: number;
  ca_id: number | null;
  /** 'private': reached through the router `router_name` (issue 33). */
  mode?: string;
  router_name?: string;
}

/** The uploaded CA certificate of a tenant, as text, or undefined (none, or its file is gone). */
export async function uploadedCa(ctx: Pick<Ctx, 'db' | 'storage'>, tenantId: number, caId: number | null): Promise<string | undefined> {
  if (caId === null) return undefined;
  const file = await ctx.db.selectFrom('ldap_file').select('storage_key').where('id', '=', caId).where('tenant_id', '=', tenantId).executeTakeFirst();
  if (!file) return undefined;
  return (await ctx.storage.get(tenantId, file.storage_key))?.body.toString('utf8');
}

/** The server of a configuration: LDAPS, StartTLS or plain, trusting its uploaded CA when it has one; in private mode through its router. */
export async function storedServer(ctx: Pick<Ctx, 'db' | 'storage' | 'pubsub' | 'log'>, c: StoredConnection): Promise<DirectoryServer> {
  const ca = await uploadedCa(ctx, c.tenant_id, c.ca_id);
  const via = c.mode === 'private' && c.router_name ? routerVia(ctx, { tenantId: c.tenant_id, routerName: c.router_name }) : undefined;
  return { host: c.host, port: c.port, security: c.use_ssl === 1 ? 'ldaps' : c.use_tls === 1 ? 'starttls' : 'plain', ...(ca ? { ca } : {}), ...(via ? { via } : {}) };
}

/** ok: the directory took the password; wrong: it did not (or the member is no directory user); disabled: the directory marks the user disabled; unavailable: it could not be asked. */
export type DirectoryVerdict = 'ok' | 'wrong' | 'disabled' | 'unavailable';

/**
 * Checks a directory member's password by binding as its DN. An empty password is refused before
 * anything is sent: LDAP takes a bind with a DN and no password as an anonymous bind, which succeeds.
 * After the bind the user reads its own entry, so a user disabled in the directory cannot sign in
 * even before the next sync (Active Directory refuses such a bind by itself); an entry it may not
 * read leaves the decision to the member's status, which the sync keeps.
 */
export async function directorySignIn(ctx: Ctx, member: { id: number; tenant_id: number }, password: string): Promise<DirectoryVerdict> {
  if (password.length === 0) return 'wrong';
  const row = await ctx.db
    .selectFrom('ldap_user as u')
    .innerJoin('ldap_config as c', 'c.tenant_id', 'u.tenant_id')
    .select(['u.dn', 'c.tenant_id', 'c.host', 'c.port', 'c.use_ssl', 'c.use_tls', 'c.ca_id', 'c.type', 'c.mode', 'c.router_name'])
    .where('u.member_id', '=', member.id)
    .where('u.tenant_id', '=', member.tenant_id)
    .where('c.status', '=', 1)
    .executeTakeFirst();
  if (!row) return 'wrong';
  const limits = { allowPrivateTargets: ctx.config.allowPrivateTargets, timeoutMs: LIMITS.directorySignInTimeoutMs, wholeSession: true };
  try {
    return await withDirectory(limits, await storedServer(ctx, row), async (session) => {
      await session.bind(row.dn, password);
      const kind = directoryKindOf(row.type);
      const own = await session.search(row.dn, { scope: 'base', filter: '(objectClass=*)', attributes: kind.attributes, buffers: kind.buffers }).catch(() => []);
      const self = own[0] ? kind.read(own[0]) : null;
      return self?.disabled ? 'disabled' : 'ok';
    });
  } catch (err) {
    if (err instanceof DirectoryError && err.kind === 'credentials') return 'wrong';
    ctx.log.warn({ tenantId: member.tenant_id, memberId: member.id, reason: err instanceof DirectoryError ? err.detail : String(err) }, 'gateway: the directory could not check a member’s password');
    return 'unavailable';
  }
}
