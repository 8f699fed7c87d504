import { AUTH_SOURCE_TYPES, M, type AuthSourceType } from '@hublink/contract';
import type { Ctx } from '../../core/context';
import { forbidden } from '../../core/errors';
import type { Db } from '../../db/connect';
import type { SourceApp } from './providers';

/** Only tenants the operator gave the feature (account.software_auth_source = 1) use sign-in sources. */
export async function ensureFeature(db: Db, tenantId: number): Promise<void> {
  const account = await db.selectFrom('account').select(['software_auth_source', 'status']).where('id', '=', tenantId).executeTakeFirst();
  if (account?.software_auth_source !== 1 || account.status !== 1) throw forbidden(M.authSourceNotEnabled);
}

/** Secrets are sealed for their tenant: a sealed value copied to another tenant's row does not open. */
const sealContext = (tenantId: number) => `auth_source:${tenantId}`;

export const sealSecret = (ctx: Ctx, tenantId: number, secret: string) => ctx.secretBox.seal(secret, sealContext(tenantId));
export const openSecret = (ctx: Ctx, tenantId: number, sealed: string) => ctx.secretBox.openText(sealed, sealContext(tenantId));

export const isSourceType = (v: string): v is AuthSourceType => (AUTH_SOURCE_TYPES as readonly string[]).includes(v);

/** The columns of a source row the services read. */
export const SOURCE_COLUMNS = ['id', 'tenant_id', 'type', 'name', 'app_id', 'app_secret', 'agent_id', 'corp_id', 'status', 'create_time'] as const;

export interface SourceRow {
  id: number;
  tenant_id: number;
  type: string;
  name: string;
  app_id: string;
  app_secret: string;
  agent_id: string;
  corp_id: string;
  status: number;
  create_time: number;
}

/** A source's app with its secret opened, for one call to its provider. */
export function appOf(ctx: Ctx, row: SourceRow): SourceApp {
  if (!isSourceType(row.type)) throw new Error(`auth_source ${row.id} has an unknown type`);
  return { type: row.type, app_id: row.app_id, app_secret: openSecret(ctx, row.tenant_id, row.app_secret), agent_id: row.agent_id, corp_id: row.corp_id };
}
