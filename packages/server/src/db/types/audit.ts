import type { Generated } from 'kysely';

/** The audit trail: the audit module owns its entries and retention; core (`core/audit.ts`) writes the pending changes. */
export interface AuditSchema {
  audit_entry: AuditEntryTable;
  audit_setting: AuditSettingTable;
  audit_pending: AuditPendingTable;
}

/** One audited call (issue 18), written from its operation.performed event. */
export interface AuditEntryTable {
  id: Generated<number>;
  tenant_id: number;
  event_id: number;
  create_time: number;
  who: string;
  ram_id: number | null;
  token_id: number | null;
  actor_name: Generated<string>;
  ip: Generated<string>;
  user_agent: Generated<string>;
  source: string;
  method: string;
  path: string;
  msg: string;
  area: string;
  kind: string;
  object_type: string;
  object_id: string;
  object_name: string;
  /** JSON: contract auditRowChange[]. */
  changes: string;
  more: Generated<number>;
  /** JSON contract ChangeEffect of a network settings call (issue 36); null for any other. */
  effect: Generated<string | null>;
}

/** A tenant's audit retention; no row: LIMITS.auditRetentionDays. */
export interface AuditSettingTable {
  tenant_id: number;
  retention_days: number;
}

/** An audited row change written with the change itself, until its call's entry is (migration 0038). */
export interface AuditPendingTable {
  id: Generated<number>;
  scope_id: string;
  /** JSON: core/audit.ts PendingCall. */
  call: string;
  /** JSON: core/audit.ts CapturedChange[]. */
  changes: string;
  more: Generated<number>;
  create_time: number;
}
