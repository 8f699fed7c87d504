import type { PointConfig } from './model';

/*
 * A connection profile (.ovpn) for a standard OpenVPN client — OpenVPN Connect, Tunnelblick,
 * NetworkManager, the `openvpn` command (issue 30, docs/clients.md). Everything is inline, so the file
 * alone is the profile: the network's CA and tls-crypt key and this member's own certificate and key,
 * nothing of any other member. It is made from the software member's compiled configuration, so it
 * dials what the agent would dial, in the same order.
 */

export interface ProfileKeys {
  ca: string;
  cert: string;
  key: string;
  tlsCrypt: string;
}

export interface ProfileOptions {
  /** Ask the person for a login and password (a member without one signs in on the web: WEB_AUTH). */
  password: boolean;
  /** The platform's name, in the profile's first line and as the name the apps show. */
  title: string;
}

const inline = (tag: string, pem: string) => [`<${tag}>`, pem.trim(), `</${tag}>`];

export function renderProfile(json: PointConfig, keys: ProfileKeys, options: ProfileOptions): string {
  const tunnels = [...json.tunnels].sort((a, b) => a.rank - b.rank);
  const remotes: string[] = [];
  for (const t of tunnels) for (const r of t.remotes) if (!remotes.includes(`${r.host} ${r.port}`)) remotes.push(`${r.host} ${r.port}`);
  const only = tunnels.length === 1 ? tunnels[0]! : null;
  return `${[
    `# ${options.title}: network ${json.network_number}, member ${json.router_name}. Keep this file private: it holds the member's key.`,
    `setenv FRIENDLY_NAME "${options.title.replace(/["\\]/g, '')} ${json.network_number}"`,
    'client',
    'dev tun',
    'proto udp',
    // The main center first, then the others: a center that does not answer is left for the next.
    ...remotes.map((r) => `remote ${r}`),
    'nobind',
    'resolv-retry infinite',
    'connect-retry 1 5',
    'server-poll-timeout 4',
    `data-ciphers ${json.ciphers.data_ciphers.join(':')}`,
    ...(json.ciphers.auth ? [`auth ${json.ciphers.auth}`] : []),
    `ping ${json.timers.ping}`,
    `ping-restart ${json.timers.ping_restart}`,
    // Closing the client tells the center at once: its session ends in the logs when it ended.
    'explicit-exit-notify 1',
    'persist-key',
    // Only a center of this network (its CA signs server certificates for centers alone); with one center, that one by name.
    'remote-cert-tls server',
    ...(only ? [`verify-x509-name ${only.center} name`] : []),
    ...(options.password ? ['auth-user-pass', 'auth-nocache'] : []),
    // Tells the center this client can finish a sign-in in the browser (OpenVPN's pending authentication).
    'setenv IV_SSO webauth',
    'push-peer-info',
    'verb 3',
    ...inline('ca', keys.ca),
    ...inline('cert', keys.cert),
    ...inline('key', keys.key),
    ...inline('tls-crypt', keys.tlsCrypt),
  ].join('\n')}\n`;
}
