import type { Generated } from 'kysely';

/** POP resources, their areas and relays: the pop module owns them (the device gateway writes a relay's live columns). */
export interface PopSchema {
  network_fr: NetworkFrTable;
  network_fr_area: NetworkFrAreaTable;
  pop_relay: PopRelayTable;
}

/** A POP (franchise) resource of a tenant (migration 0013). */
export interface NetworkFrTable {
  id: Generated<number>;
  tenant_id: number;
  name: string;
  /** 1 valid, otherwise processing. */
  status: Generated<number>;
  create_time: number;
  expire_time: number;
  /** The access-POP order (network_ticket.id) that created it (migration 0015); NULL for one made by hand. */
  ticket_id: Generated<number | null>;
}

export interface NetworkFrAreaTable {
  id: Generated<number>;
  tenant_id: number;
  network_fr_id: number;
  region: string;
  name: string;
  /** Mbps */
  bandwidth: number;
  host: Generated<string>;
  port: Generated<number>;
  /** JSON list of the router names the order's pop_conf put in this region (migration 0015). */
  routers: Generated<string>;
}

/** A POP relay the operator registered for an area (migration 0035); seen_time and the load are its last report. */
export interface PopRelayTable {
  id: Generated<number>;
  tenant_id: number;
  area_id: number;
  name: string;
  token_hash: string;
  create_time: number;
  seen_time: number | null;
  address: Generated<string>;
  sessions: Generated<number>;
  bytes_in: Generated<number>;
  bytes_out: Generated<number>;
}
