import { maskToDotted } from './ip';
import type { CenterConfig, CommonConfig, LinkConfig, MemberJson, PointConfig, ServiceClient, ServiceConfig, Tunnel } from './model';

/*
 * The OpenVPN 2.6 files of one member, rendered from its structured configuration alone (so the two
 * never disagree). Keys are named, not inlined: `ca.crt`, `member.crt`, `member.key`, `tls-crypt.key`
 * and, on a center, `crl.pem` sit beside the files where the agent puts them.
 *
 * The agent owns routes and DNS (it installs the JSON's route groups as tunnels come and go), so no file
 * here adds a route or takes pushed ones, and no tunnel keeps its device across a restart: a dead
 * tunnel's device goes, and with it every route through it. The agent names each instance's device
 * on the command line (`--dev hlN --dev-type tun`).
 */

/** `a.b.c.d/m` → `a.b.c.d 255.…` as OpenVPN writes a network (remembered: every center writes every LAN). */
const networks = new Map<string, string>();
function network(prefix: string): string {
  let text = networks.get(prefix);
  if (text === undefined) {
    const [ip, mask] = prefix.split('/');
    text = `${ip} ${maskToDotted(Number(mask))}`;
    if (networks.size >= 100_000) networks.clear();
    networks.set(prefix, text);
  }
  return text;
}

const header = (json: CommonConfig, what: string) => `# HubLink network ${json.network_number}, ${json.router_name}: ${what}. Generated; do not edit.`;

function cipherLines(json: CommonConfig): string[] {
  return [`data-ciphers ${json.ciphers.data_ciphers.join(':')}`, ...(json.ciphers.auth ? [`auth ${json.ciphers.auth}`] : [])];
}

/** Keepalive both ways: a silent peer is given up after ping_restart seconds (docs/networking.md, "Failover"). */
const keepalive = (json: CommonConfig) => [`ping ${json.timers.ping}`, `ping-restart ${json.timers.ping_restart}`];

const KEYS = ['ca ca.crt', 'cert member.crt', 'key member.key', 'tls-crypt tls-crypt.key'];
const lines = (xs: string[]) => `${xs.join('\n')}\n`;

export function renderMember(json: MemberJson): Record<string, string> {
  return json.member_type === 'center' ? renderCenter(json) : renderPoint(json);
}

function renderCenter(json: CenterConfig): Record<string, string> {
  const files: Record<string, string> = {};
  for (const s of json.services) {
    files[`${s.service}.conf`] = renderService(json, s);
    const mask = maskToDotted(Number(s.subnet.split('/')[1]));
    for (const c of s.clients) files[`ccd-${s.service}/${c.router_name}`] = renderCcd(c, mask);
  }
  for (const l of json.links) files[`${l.name}.conf`] = renderLink(json, l);
  return files;
}

function renderService(json: CenterConfig, s: ServiceConfig): string {
  const [net, mask] = s.subnet.split('/');
  return lines([
    header(json, `server for ${s.service === 'router' ? 'hardware routers' : 'software clients'}`),
    `port ${s.port}`,
    'proto udp',
    // A center with several uplinks answers a point from the address the point dialled.
    'multihome',
    'dev tun',
    'topology subnet',
    `server ${net} ${maskToDotted(Number(mask))}`,
    `client-config-dir ccd-${s.service}`,
    // A point gets only the address the plan gave it; one without a file is refused.
    'ccd-exclusive',
    ...cipherLines(json),
    ...keepalive(json),
    // A restarting server tells its clients, which reconnect at once instead of after ping_restart.
    'explicit-exit-notify 1',
    'persist-key',
    ...KEYS,
    'crl-verify crl.pem',
    'dh none',
    // Only client certificates of the network's CA: a point's, never posing as a center.
    'remote-cert-tls client',
    // A software service also takes standard OpenVPN clients (issue 30, docs/clients.md): the agent asks
    // the platform who the person is before a client is admitted, and gives a client without the agent
    // its routes and DNS with the admission (the management interface, whose port it sets).
    // A member that signs in on the web sends no login (its profile asks for none): OpenVPN would end
    // such a connection before asking the agent; the platform refuses a missing login for everyone else.
    ...(s.service === 'software' ? ['management-client-auth', 'auth-user-pass-optional'] : []),
    'verb 3',
  ]);
}


/** A client entry is never changed once made (see canonical.ts), so its file is written once per mask. */
const ccdTexts = new WeakMap<ServiceClient, { mask: string; text: string }>();

function renderCcd(c: ServiceClient, mask: string): string {
  const known = ccdTexts.get(c);
  if (known?.mask === mask) return known.text;
  const text = c.address ? lines([`ifconfig-push ${c.address} ${mask}`, ...c.iroutes.map((r) => `iroute ${network(r)}`)]) : lines(['disable']);
  ccdTexts.set(c, { mask, text });
  return text;
}

function renderLink(json: CenterConfig, l: LinkConfig): string {
  const server = l.role === 'server';
  return lines([
    header(json, `${l.kind === 'twin' ? 'twin-center link' : 'interconnect link'} ${server ? 'server' : 'client'} to ${l.peer}`),
    'proto udp',
    'dev tun',
    ...(server ? [`port ${l.port}`, 'float', 'tls-server', 'dh none'] : [`remote ${l.remote!.host} ${l.remote!.port}`, 'nobind', 'tls-client', 'connect-retry 1 5']),
    `ifconfig ${l.address} ${l.peer_address}`,
    ...cipherLines(json),
    ...keepalive(json),
    'persist-key',
    ...KEYS,
    ...(server ? ['crl-verify crl.pem'] : []),
    // Both ends hold center certificates (serverAuth and clientAuth); each accepts only the other center's name.
    `remote-cert-tls ${server ? 'client' : 'server'}`,
    `verify-x509-name ${l.peer} name`,
    'verb 3',
  ]);
}

function renderPoint(json: PointConfig): Record<string, string> {
  const files: Record<string, string> = {};
  json.tunnels.forEach((t, i) => (files[`${t.name}.conf`] = renderTunnel(json, t, i === 0 ? json.local_port : null)));
  return files;
}

/**
 * A POP relay's own retry settings (docs/networking.md, "POP relays"): OpenVPN keeps these per remote
 * only in `<connection>` blocks. A relay that went silent costs a pause of 1 s before the next try (not
 * `auth-retry nointeract`'s 10, capped at 5 by the defaults above), and a relay that does not answer is
 * left after 2 s (OpenVPN counts in whole seconds: 1–2 s), so the point is on its next remote within
 * 10 s of the relay's death. A center keeps the defaults: its direct link fails over and back as before.
 */
const RELAY_RETRY = ['connect-retry 1 1', 'server-poll-timeout 2'];

/**
 * The remotes of a tunnel with a POP relay among them, as `<connection>` blocks. They close the file:
 * a block takes as defaults the connection options written before it (lport or nobind, connect-retry,
 * server-poll-timeout, explicit-exit-notify), and OpenVPN ignores `remote` lines beside blocks.
 */
function connectionBlocks(t: Tunnel): string[] {
  if (!t.remotes.some((r) => r.via === 'pop')) return [];
  return t.remotes.flatMap((r) => ['<connection>', `remote ${r.host} ${r.port}`, ...(r.via === 'pop' ? RELAY_RETRY : []), '</connection>']);
}

function renderTunnel(json: PointConfig, t: Tunnel, localPort: number | null): string {
  const blocks = connectionBlocks(t);
  return lines([
    header(json, `client to ${t.center}`),
    'client',
    'proto udp',
    'dev tun',
    ...(blocks.length ? [] : t.remotes.map((r) => `remote ${r.host} ${r.port}`)),
    localPort ? `lport ${localPort}` : 'nobind',
    'resolv-retry infinite',
    // A center that went away is tried again within seconds, so failback does not wait minutes.
    'connect-retry 1 5',
    // Refused (a center that has not yet received this point's entry): try again, never give up.
    'auth-retry nointeract',
    'server-poll-timeout 4',
    ...cipherLines(json),
    ...keepalive(json),
    'explicit-exit-notify 1',
    'persist-key',
    // The agent installs routes and DNS from the configuration, not from the center's pushes.
    'route-nopull',
    ...KEYS,
    // A software client proves its person too: the agent writes its login and credential there.
    ...(json.service === 'software' ? ['auth-user-pass auth.txt', 'auth-nocache'] : []),
    // Only this center: a server certificate of the network's CA carrying its name.
    'remote-cert-tls server',
    `verify-x509-name ${t.center} name`,
    'verb 3',
    ...blocks,
  ]);
}
