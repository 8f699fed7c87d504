import type { Generated } from 'kysely';

/** Monitoring, contacts, webhooks and the alert engine: the monitor module owns them. */
export interface MonitorSchema {
  monitor_config: MonitorConfigTable;
  monitor_router: MonitorRouterTable;
  monitor_contact: MonitorContactTable;
  monitor_webhook: MonitorWebhookTable;
  monitor_hook: MonitorHookTable;
  monitor_state: MonitorStateTable;
  monitor_alert: MonitorAlertTable;
  monitor_delivery: MonitorDeliveryTable;
  monitor_webhook_message: MonitorWebhookMessageTable;
  monitor_webhook_lane: MonitorWebhookLaneTable;
}

/** A tenant's monitoring alerts (migration 0022); flags are 0/1. */
export interface MonitorConfigTable {
  tenant_id: number;
  enable: number;
  enable_time: number | null;
  portal_confirm: number;
  email_confirm: number;
  webhook_confirm: number;
  router_online: number;
  router_offline: number;
  service_expired: number;
  pop_connect: number;
  create_time: number;
  update_time: number;
}

/** A monitored device (a hardware member); goes with its member. */
export interface MonitorRouterTable {
  member_id: number;
  tenant_id: number;
  create_time: number;
}

export interface MonitorContactTable {
  id: Generated<number>;
  uuid: string;
  tenant_id: number;
  name: string;
  email: string;
  email_key: string;
  email_verify: Generated<number>;
  verify_sent_at: number | null;
  create_time: number;
  update_time: number;
}

export interface MonitorWebhookTable {
  tenant_id: number;
  type: string;
  url: string;
  /** Sealed by the secret box; null when none. */
  secret: string | null;
  create_time: number;
  update_time: number;
}

/** One of a tenant's webhooks (migration 0043): the default is its oldest. */
export interface MonitorHookTable {
  id: Generated<number>;
  uuid: string;
  tenant_id: number;
  name: string;
  type: string;
  url: string;
  /** Sealed by the secret box (context monitor_webhook:<tenant>); null when none. */
  secret: string | null;
  /** Alert kinds, comma-separated. */
  kinds: string;
  /** Comma-separated; '' for none. */
  at_mobiles: Generated<string>;
  at_user_ids: Generated<string>;
  at_all: Generated<number>;
  create_time: number;
  update_time: number;
}

/** A monitored member's online state as the alert engine follows it. */
export interface MonitorStateTable {
  member_id: number;
  tenant_id: number;
  last_change_at: number;
  offline_at: number | null;
  alerted: Generated<number>;
}

export interface MonitorAlertTable {
  id: Generated<number>;
  tenant_id: number;
  dedupe_key: string;
  kind: string;
  member_id: number | null;
  router_name: Generated<string>;
  title: string;
  text: string;
  at: number;
  create_time: number;
}

export interface MonitorDeliveryTable {
  id: Generated<number>;
  tenant_id: number;
  alert_id: number;
  channel: string;
  target: string;
  contact_id: number | null;
  status: string;
  attempts: Generated<number>;
  last_error: string | null;
  next_at: number;
  lease_until: Generated<number>;
  create_time: number;
  update_time: number;
  done_at: number | null;
  /** The webhook message carrying it (migration 0044); null for other channels and before it is grouped. */
  message_id: Generated<number | null>;
}

/** One message to a webhook, carrying the deliveries of the alerts grouped into it (migration 0044). */
export interface MonitorWebhookMessageTable {
  id: Generated<number>;
  tenant_id: number;
  target: string;
  status: string;
  close_at: number;
  next_at: number;
  attempts: Generated<number>;
  last_error: string | null;
  create_time: number;
  update_time: number;
  done_at: number | null;
}

/** A webhook's sending state: lease, grouping window, recent attempts (migration 0044). */
export interface MonitorWebhookLaneTable {
  tenant_id: number;
  target: string;
  window_until: Generated<number>;
  lease_until: Generated<number>;
  recent: Generated<string>;
  update_time: number;
}
