import type { Db } from '../db/connect';
import { centerRemote } from './compile';
import type { MemberInput, RelayPortInput } from './model';
import { SERVICES } from './plan';

/*
 * The POP relays' forwarding tables (pop_relay_port, migration 0035; issue 30). A relay is a plain UDP
 * forwarder: it cannot read which center a tls-crypt packet is for, so every center a point may reach
 * through an area gets a port of its own on that area's relays. In each area with a relay address,
 * every (network, center, service) of the networks on the resource holds one port, the lowest free
 * from the area's port up; it keeps it while it exists, so a relay's table and the points' `remote`
 * lines do not move when someone else joins or leaves. The row also says where the port forwards (the
 * address the points would dial the center at directly), which the relays fetch
 * (gateway/relayTable.ts). Called in the recompile's transaction, under the tenant lock that every
 * network change takes, so two networks on one resource never allocate at once (and the unique index
 * on area and port holds regardless).
 */

const MAX_PORT = 65_535;

export interface RelayArea {
  id: number;
  host: string;
  port: number;
}

/** Allocates and refreshes the network's relay ports; gives back each area's ports for the compiler input. */
export async function assignRelayPorts(
  db: Db,
  tenantId: number,
  networkId: number,
  areas: RelayArea[],
  members: MemberInput[],
  memberIds: ReadonlyMap<string, number>,
): Promise<Map<number, RelayPortInput[]>> {
  const centers = members.filter((m) => m.member_type === 'center');
  const wanted = areas
    .filter((a) => a.host !== '')
    .flatMap((area) => centers.flatMap((center) => SERVICES.map((service) => ({ area, center, service, centerId: memberIds.get(center.router_name)! }))));
  const stored = await db
    .selectFrom('pop_relay_port')
    .select(['id', 'area_id', 'center_member_id', 'service', 'port', 'target_host', 'target_port'])
    .where('network_id', '=', networkId)
    .where('tenant_id', '=', tenantId)
    .execute();
  const keyOf = (areaId: number, centerId: number, service: string) => `${areaId}:${centerId}:${service}`;
  const wantedKeys = new Set(wanted.map((w) => keyOf(w.area.id, w.centerId, w.service)));
  const gone = stored.filter((s) => !wantedKeys.has(keyOf(s.area_id, s.center_member_id, s.service))).map((s) => s.id);
  if (gone.length > 0) await db.deleteFrom('pop_relay_port').where('id', 'in', gone).where('tenant_id', '=', tenantId).execute();
  const byKey = new Map(stored.map((s) => [keyOf(s.area_id, s.center_member_id, s.service), s]));

  const taken = new Map<number, Set<number>>();
  const takenIn = async (areaId: number) => {
    let ports = taken.get(areaId);
    if (!ports) {
      const rows = await db.selectFrom('pop_relay_port').select('port').where('area_id', '=', areaId).where('tenant_id', '=', tenantId).execute();
      ports = new Set(rows.map((r) => r.port));
      taken.set(areaId, ports);
    }
    return ports;
  };

  const out = new Map<number, RelayPortInput[]>();
  for (const w of wanted) {
    const target = centerRemote(w.center, w.service);
    const row = byKey.get(keyOf(w.area.id, w.centerId, w.service));
    let port = row?.port;
    if (row && (row.target_host !== target.host || row.target_port !== target.port)) {
      await db.updateTable('pop_relay_port').set({ target_host: target.host, target_port: target.port }).where('id', '=', row.id).where('tenant_id', '=', tenantId).execute();
    }
    if (port === undefined) {
      const ports = await takenIn(w.area.id);
      let free = w.area.port;
      while (free <= MAX_PORT && ports.has(free)) free += 1;
      // A full area leaves the center without a path through it (its points dial it directly).
      if (free > MAX_PORT) continue;
      ports.add(free);
      port = free;
      await db
        .insertInto('pop_relay_port')
        .values({ tenant_id: tenantId, area_id: w.area.id, network_id: networkId, center_member_id: w.centerId, service: w.service, port, target_host: target.host, target_port: target.port })
        .execute();
    }
    const list = out.get(w.area.id) ?? [];
    list.push({ center: w.center.router_name, service: w.service, port });
    out.set(w.area.id, list);
  }
  return out;
}
