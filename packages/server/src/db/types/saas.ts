import type { Generated } from 'kysely';

/** SaaS attributes of hardware members: the saas module owns them. */
export interface SaasSchema {
  saas_device: SaasDeviceTable;
}

/** A hardware member's SaaS attributes, set by the operator (migration 0019). */
export interface SaasDeviceTable {
  member_id: number;
  tenant_id: number;
  category: Generated<string>;
  share: Generated<number>;
  bandwidth: Generated<number>;
  max_bandwidth: Generated<number>;
  expire_time: number | null;
  temp_bandwidth: Generated<number>;
  temp_start_time: number | null;
  temp_expire_time: number | null;
  /** JSON list of addresses. */
  ip: Generated<string>;
  create_time: number;
  update_time: number;
}
