import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { diagnosisMessages, fmt } from './messages';
import { networkDetailPaging, networkNumberField } from './network';
import { routerNameField } from './router';

/**
 * Device diagnostics and confirmed delivery (issue 18). The causes, in the order they are checked: the
 * first that holds is the one 诊断 names.
 */
export const DIAGNOSIS_CAUSES = ['never_connected', 'wrong_secret', 'disabled', 'certificate', 'heartbeat_lost', 'tunnel_down', 'failed_over', 'config_behind', 'healthy'] as const;
export type DiagnosisCause = (typeof DIAGNOSIS_CAUSES)[number];

/** The Chinese title of each cause. */
export const DIAGNOSIS_TITLE: Record<DiagnosisCause, string> = {
  never_connected: diagnosisMessages.diagnosisNeverConnected,
  wrong_secret: diagnosisMessages.diagnosisWrongSecret,
  disabled: diagnosisMessages.diagnosisDisabled,
  certificate: diagnosisMessages.diagnosisCertificate,
  heartbeat_lost: diagnosisMessages.diagnosisHeartbeatLost,
  tunnel_down: diagnosisMessages.diagnosisTunnelDown,
  failed_over: diagnosisMessages.diagnosisFailedOver,
  config_behind: diagnosisMessages.diagnosisConfigBehind,
  healthy: diagnosisMessages.diagnosisHealthy,
};

/** One of the member's networks: its config as compiled and as the device acknowledged it, and its tunnels to centers. */
export const diagnosisNetwork = z.object({
  network_number: z.string(),
  network_name: z.string(),
  /** 0 before the network was compiled. */
  config_version: z.number(),
  /** 0: the device acknowledged none yet. */
  applied_version: z.number(),
  applied_error: z.string(),
  /** When the device acknowledged applied_version ('' never). */
  applied_time: z.string(),
  /** A point's links to its centers as its agent last reported them. */
  links: z.array(z.object({ center: z.string(), vpn_online: z.number() })),
});
export type DiagnosisNetwork = z.infer<typeof diagnosisNetwork>;

export const diagnosis = z.object({
  router_name: z.string(),
  cause: z.enum(DIAGNOSIS_CAUSES),
  /** The cause in one sentence, with its facts (time, address, network). */
  message: z.string(),
  online: z.number(),
  /** The device's last message and address (the open session's start while online; '' never). */
  last_seen: z.string(),
  remote_ip: z.string(),
  /** Why its last session closed (the close code of docs/device-protocol.md; 0 unknown). */
  close_code: z.number(),
  close_reason: z.string(),
  /** The last refused hello that named the member ('' none). */
  failure_time: z.string(),
  failure_ip: z.string(),
  networks: z.array(diagnosisNetwork),
});
export type Diagnosis = z.infer<typeof diagnosis>;

/** GET /router/diagnosis: why a member is offline or degraded, from what the device gateway knows. */
export const routerDiagnosis = defineEndpoint({
  path: '/router/diagnosis',
  method: 'GET',
  access: 'user',
  query: z.object({ router_name: routerNameField }),
  response: diagnosis,
});

/**
 * GET /network/delivery: who has not acknowledged the current config, and how long the last change took.
 * `behind` is whole, or with behind_page that page of it (issue 34: at 5,000 members all of them may be
 * behind for a while); behind_count is always the whole count.
 */
export const networkDelivery = defineEndpoint({
  path: '/network/delivery',
  method: 'GET',
  access: 'user',
  networkScoped: true,
  query: z.object({ network_number: networkNumberField, behind_page: networkDetailPaging.shape.member_page, page_size: networkDetailPaging.shape.page_size }),
  response: z.object({
    /** Members whose device has not acknowledged its current config version (hardware first, by name). */
    behind: z.array(z.object({ router_name: z.string(), online: z.number(), config_version: z.number(), applied_version: z.number(), applied_error: z.string() })),
    behind_count: z.number(),
    /** The network's last change (null before any): when it was compiled, how many members it changed, how many acknowledged it, and the time to acknowledge (seconds; null while none has). */
    last_change: z
      .object({ time: z.string(), members: z.number(), acknowledged: z.number(), p50_seconds: z.number().nullable(), p95_seconds: z.number().nullable() })
      .nullable(),
  }),
});

/** The sentence for a diagnosis, from its cause and facts. */
export function diagnosisMessage(cause: DiagnosisCause, facts: { time?: string; ip?: string; network?: string; center?: string; backup?: string }): string {
  const detail = {
    never_connected: diagnosisMessages.diagnosisNeverConnectedDetail,
    wrong_secret: diagnosisMessages.diagnosisWrongSecretDetail,
    disabled: diagnosisMessages.diagnosisDisabledDetail,
    certificate: diagnosisMessages.diagnosisCertificateDetail,
    heartbeat_lost: diagnosisMessages.diagnosisHeartbeatLostDetail,
    tunnel_down: diagnosisMessages.diagnosisTunnelDownDetail,
    failed_over: diagnosisMessages.diagnosisFailedOverDetail,
    config_behind: diagnosisMessages.diagnosisConfigBehindDetail,
    healthy: diagnosisMessages.diagnosisHealthyDetail,
  }[cause];
  return fmt(detail, { time: facts.time ?? '', ip: facts.ip ?? '', network: facts.network ?? '', center: facts.center ?? '', backup: facts.backup ?? '' });
}
