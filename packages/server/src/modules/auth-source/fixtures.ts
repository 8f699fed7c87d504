import { createAuthSource } from '@hublink/contract';
import type { TestApp } from '../../../test/helpers';

/** Gives a tenant the feature as the operator's CLI will (account.software_auth_source = 1), or takes it away. */
export async function grantFeature(t: TestApp, tenantId: number, on = 1) {
  await t.db.updateTable('account').set({ software_auth_source: on }).where('id', '=', tenantId).execute();
}

/** Creates a source through POST /auth_source/create and answers its id. */
export async function createSourceAs(t: TestApp, token: string, body: object): Promise<number> {
  const res = await t.call(createAuthSource, { token, body });
  if (res.code !== 200) throw new Error(`create: ${res.msg}`);
  return res.data!.id;
}
