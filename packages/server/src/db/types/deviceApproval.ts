import type { Generated } from 'kysely';

/** Device approval: the device-approval module owns it (the gateway records devices through `gateway/approval.ts`). */
export interface DeviceApprovalSchema {
  device_approval_setting: DeviceApprovalSettingTable;
  device_approval: DeviceApprovalTable;
}

/** A tenant's device approval setting (migration 0034, issue 30); no row: off. */
export interface DeviceApprovalSettingTable {
  id: Generated<number>;
  tenant_id: number;
  enabled: number;
  /** When approval was last turned on. */
  enabled_time: number | null;
  update_time: number;
}

/** A device a member signed in from, and whether it may (migration 0034, issue 30). */
export interface DeviceApprovalTable {
  id: Generated<number>;
  tenant_id: number;
  member_id: number;
  device_key: string;
  ip: Generated<string>;
  os: Generated<string>;
  model: Generated<string>;
  brand: Generated<string>;
  /** 'waiting' | 'approved' | 'refused'. */
  state: string;
  first_time: number;
  last_time: number;
  decided_by: Generated<string>;
  decided_time: number | null;
}
