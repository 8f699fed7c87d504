import { fmt, M, type AlertKind } from '@hublink/contract';
import { formatTime } from '../../core/time';
import type { WebhookMessage } from './providers';

/*
 * What one webhook message says about the alerts grouped into it (dispatch.ts). One alert: the alert
 * itself, as it always went out. Several: a summary: per kind (in a fixed order) how many and the
 * names of the first NAMES_MAX devices, then "等 N 台" when there were more, and the window's first and
 * last times. The provider's message stays small (WeCom's markdown takes 4096 bytes): the names are
 * bounded, every alert stays in the record (monitor_alert) and the 'other' provider's JSON lists them all.
 */

/** Device names one kind's line lists at most. */
export const NAMES_MAX = 10;
/** Characters of one name in a summary (a longer one is cut with an ellipsis). */
const NAME_MAX = 40;

const KIND_ORDER: AlertKind[] = ['router_offline', 'router_online', 'pop_connect', 'service_expired'];
const KIND_LABEL: Record<AlertKind, string> = {
  router_offline: M.alertKindRouterOffline,
  router_online: M.alertKindRouterOnline,
  pop_connect: M.alertKindPopConnect,
  service_expired: M.alertKindServiceExpired,
};

/** One alert of a message, as its delivery row reads it. */
export interface GroupedAlert {
  alert_id: number;
  kind: string;
  title: string;
  text: string;
  router_name: string;
  at: number;
}

const shortName = (name: string) => (name.length > NAME_MAX ? `${name.slice(0, NAME_MAX - 1)}…` : name);

/** The message for these alerts (oldest first), in the service's time zone. */
export function summaryOf(alerts: GroupedAlert[], timezone: string): WebhookMessage {
  if (alerts.length === 1) {
    const a = alerts[0]!;
    return { event: a.kind, title: a.title, text: a.text, ...(a.router_name ? { router_name: a.router_name } : {}), at: a.at, time: formatTime(a.at, timezone), alert_id: a.alert_id };
  }
  const byKind = new Map<string, GroupedAlert[]>();
  for (const a of alerts) byKind.set(a.kind, [...(byKind.get(a.kind) ?? []), a]);
  const kinds = [...byKind.keys()].sort((x, y) => KIND_ORDER.indexOf(x as AlertKind) - KIND_ORDER.indexOf(y as AlertKind));
  const lines = kinds.map((kind) => {
    const list = byKind.get(kind)!;
    // A service expiry names the service, not a device; the title says it.
    const names = list.map((a) => shortName(a.router_name || a.title));
    const shown = names.slice(0, NAMES_MAX).join(M.alertSummaryNameSep);
    const more = list.length > NAMES_MAX ? fmt(M.alertSummaryMore, { count: list.length }) : '';
    return fmt(M.alertSummaryKind, { kind: KIND_LABEL[kind as AlertKind] ?? kind, count: list.length, names: `${shown}${more}` });
  });
  const first = Math.min(...alerts.map((a) => a.at));
  const last = Math.max(...alerts.map((a) => a.at));
  lines.push(fmt(M.alertSummaryWindow, { from: formatTime(first, timezone), to: formatTime(last, timezone) }));
  return {
    event: 'summary',
    title: fmt(M.alertSummaryTitle, { count: alerts.length }),
    text: lines.join('\n\n'),
    at: first,
    time: formatTime(first, timezone),
    alerts: alerts.map((a) => ({ event: a.kind, alert_id: a.alert_id, router_name: a.router_name, title: a.title, at: a.at, time: formatTime(a.at, timezone) })),
  };
}
