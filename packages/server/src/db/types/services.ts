import type { Generated } from 'kysely';

/** Purchased services: the service module owns them. */
export interface ServicesSchema {
  service: ServiceTable;
}

export interface ServiceTable {
  id: Generated<number>;
  tenant_id: number;
  service_name: string;
  quantity: number;
  start_time: number;
  expired_time: number;
  create_time: number;
}
