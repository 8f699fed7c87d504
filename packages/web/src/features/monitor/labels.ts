import { ALERT_KINDS, type AlertKind, type DeliveryStatus, monitorMessages as T } from '@hublink/contract';

/** The alert kinds as the console names them, in the configuration's order. */
export const KIND_LABELS: Record<AlertKind, string> = {
  router_online: T.monitorRouterOnline,
  router_offline: T.monitorRouterOffline,
  service_expired: T.monitorServiceExpired,
  pop_connect: T.monitorPopConnect,
};

export const KIND_OPTIONS = ALERT_KINDS.map((value) => ({ value, label: KIND_LABELS[value] }));

/** A delivery's status as the console says it; a pending one after a failed attempt is a retry. */
export function deliveryStatus(status: DeliveryStatus | '', attempts: number): { text: string; color: string } {
  switch (status) {
    case 'sent':
      return { text: T.deliveryStatusSent, color: 'success' };
    case 'failed':
      return { text: T.deliveryStatusFailed, color: 'error' };
    case 'pending':
      return attempts > 0 ? { text: T.deliveryStatusRetrying, color: 'warning' } : { text: T.deliveryStatusPending, color: 'processing' };
    case 'sending':
      return { text: T.deliveryStatusSending, color: 'processing' };
    case 'cancelled':
      return { text: T.deliveryStatusCancelled, color: 'default' };
    case 'logged':
      return { text: T.deliveryStatusLogged, color: 'default' };
    default:
      return { text: T.webhookNeverDelivered, color: 'default' };
  }
}
