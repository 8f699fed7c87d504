import { type NetworkDetail, networkMessages, networkSegmentsMessages, networkSettingsUiMessages, type UserMessage } from '@hublink/contract';

export interface ConfigEntry {
  key: string;
  label: string;
}

/** Line main/backup needs two or more centers (spec 2 §2). */
const LINE_MIN_CENTERS = 2;

/**
 * The network's configuration dialogs offered in the 配置 menu, by the availability conditions of spec 2
 * §2: line main/backup with two or more centers, twin-center link when network_center_link_show is 1,
 * POP config with a network_fr, segment config with a center or a POP, route prefixes with auth.quagga;
 * last, resending the config to every member.
 */
export function configEntries(detail: Pick<NetworkDetail, 'centers' | 'member_count' | 'network_fr' | 'network_center_link_show'>, auth: UserMessage['auth'] | undefined): ConfigEntry[] {
  const centers = detail.centers.length;
  const points = detail.member_count - centers;
  const hasFr = detail.network_fr !== null;
  const entries: (ConfigEntry | false)[] = [
    centers >= LINE_MIN_CENTERS && { key: 'routing', label: networkMessages.networkMenuRouting },
    detail.network_center_link_show === 1 && { key: 'center_link', label: networkMessages.networkMenuCenterLink },
    hasFr && { key: 'fr', label: networkMessages.networkMenuFr },
    { key: 'access_pop', label: networkMessages.networkMenuAccessPop },
    (centers > 0 || hasFr) && { key: 'segment', label: networkMessages.networkMenuSegment },
    { key: 'interconnect', label: networkMessages.networkMenuInterconnect },
    // Point links choose among centers: offered with two or more centers and a point (ours).
    centers >= LINE_MIN_CENTERS && points > 0 && { key: 'point_link', label: networkSegmentsMessages.segUiPointLinkTitle },
    { key: 'ciphers', label: networkMessages.networkMenuCiphers },
    { key: 'mode', label: networkMessages.networkMenuMode },
    auth?.quagga === 1 && { key: 'prefix', label: networkMessages.networkMenuPrefix },
    { key: 'dns', label: networkMessages.networkMenuDns },
    { key: 'resend', label: networkSettingsUiMessages.netSetResend },
  ];
  return entries.filter((e): e is ConfigEntry => e !== false);
}
