import type { Db } from '../../db/connect';

/** What network/info shows of POP: the network's resource ({ network_fr_id, shortname }, null without) and its areas' names by id. */
export async function popOfNetwork(db: Db, tenantId: number, frId: number | null) {
  const none = { fr: null, areaNames: new Map<number, string>() };
  if (frId === null) return none;
  const fr = await db.selectFrom('network_fr').select(['id', 'name']).where('id', '=', frId).where('tenant_id', '=', tenantId).executeTakeFirst();
  if (!fr) return none;
  const areas = await db.selectFrom('network_fr_area').select(['id', 'name']).where('tenant_id', '=', tenantId).where('network_fr_id', '=', fr.id).execute();
  return { fr: { network_fr_id: fr.id, shortname: fr.name }, areaNames: new Map(areas.map((a) => [a.id, a.name])) };
}
