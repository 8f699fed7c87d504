import { maskToDotted } from './ip';
import type { CenterConfig, CommonConfig, LinkConfig, MemberJson, PointConfig, ServiceClient, ServiceConfig, Tunnel } from './model';

/*
 * The OpenVPN 2.6 files of one member, rendered from its structured configuration alone (so the two
 * never disagree). Certificates are named, not inlined: `ca.crt`, `member.crt`, `member.key` and, on
 * a server, `crl.pem` sit beside the files where the agent (or the data-plane test) puts them.
 */

const KEEPALIVE = 'keepalive 10 60';

/** `a.b.c.d/m` → `a.b.c.d 255.…` as OpenVPN writes a route (remembered: every center writes every LAN). */
const routes = new Map<string, string>();
function route(prefix: string): string {
  let text = routes.get(prefix);
  if (text === undefined) {
    const [ip, mask] = prefix.split('/');
    text = `${ip} ${maskToDotted(Number(mask))}`;
    if (routes.size >= 100_000) routes.clear();
    routes.set(prefix, text);
  }
  return text;
}

const header = (json: CommonConfig, what: string) => `# HubLink network ${json.network_number}, ${json.router_name}: ${what}. Generated; do not edit.`;

function cipherLines(json: CommonConfig): string[] {
  return [`data-ciphers ${json.ciphers.data_ciphers.join(':')}`, ...(json.ciphers.auth ? [`auth ${json.ciphers.auth}`] : [])];
}

const CERTS = ['ca ca.crt', 'cert member.crt', 'key member.key'];
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
  if (json.center_link) files['center-link.conf'] = renderLink(json, json.center_link);
  return files;
}

function renderService(json: CenterConfig, s: ServiceConfig): string {
  const [network, mask] = s.subnet.split('/');
  return lines([
    header(json, `server for ${s.service === 'router' ? 'hardware routers' : 'software clients'}`),
    `port ${s.port}`,
    'proto udp',
    // A center with several uplinks answers a point from the address the point dialled.
    'multihome',
    'dev tun',
    'topology subnet',
    `server ${network} ${maskToDotted(Number(mask))}`,
    `client-config-dir ccd-${s.service}`,
    // A point gets only the address the plan gave it; one without a file is refused.
    'ccd-exclusive',
    ...cipherLines(json),
    KEEPALIVE,
    'persist-key',
    'persist-tun',
    ...json.dns.map((d) => `push "dhcp-option DNS ${d}"`),
    ...(json.push_routes.length > 0 ? [pushBlock(json.push_routes)] : []),
    ...s.clients.flatMap((c) => c.lan.map((r) => `route ${route(r)}`)),
    ...CERTS,
    'crl-verify crl.pem',
    'dh none',
    'remote-cert-tls client',
    'verb 3',
  ]);
}

/** A client entry is never changed once made (see canonical.ts), so its file is written once per mask. */
const ccdTexts = new WeakMap<ServiceClient, { mask: string; text: string }>();

/** The `push "route …"` lines of a list of routes, as one block (every service of every center pushes the same list). */
let lastPush: { key: string; text: string } = { key: '', text: '' };
function pushBlock(routes: string[]): string {
  const key = routes.join(',');
  if (key !== lastPush.key) lastPush = { key, text: routes.map((r) => `push "route ${route(r)}"`).join('\n') };
  return lastPush.text;
}

function renderCcd(c: ServiceClient, mask: string): string {
  const known = ccdTexts.get(c);
  if (known?.mask === mask) return known.text;
  const text = ccdText(c, mask);
  ccdTexts.set(c, { mask, text });
  return text;
}

function ccdText(c: ServiceClient, mask: string): string {
  if (!c.address) return lines(['disable']);
  return lines([
    `ifconfig-push ${c.address} ${mask}`,
    ...c.lan.map((r) => `iroute ${route(r)}`),
    ...(c.redirect_gateway ? ['push "redirect-gateway def1"'] : []),
  ]);
}

function renderLink(json: CenterConfig, l: LinkConfig): string {
  const server = l.role === 'server';
  return lines([
    header(json, `twin-center link ${server ? 'server' : 'client'} to ${l.peer}`),
    'proto udp',
    'dev tun',
    ...(server ? [`port ${l.port}`, 'tls-server'] : [`remote ${l.remote!.host} ${l.remote!.port}`, 'nobind', 'tls-client']),
    `ifconfig ${l.address} ${l.peer_address}`,
    ...l.routes.map((r) => `route ${route(r)} ${l.peer_address}`),
    ...cipherLines(json),
    KEEPALIVE,
    'persist-key',
    'persist-tun',
    ...CERTS,
    ...(server ? ['crl-verify crl.pem', 'dh none'] : []),
    // Both ends hold center (server) certificates.
    'remote-cert-tls server',
    `verify-x509-name ${l.peer} name`,
    'verb 3',
  ]);
}

function renderPoint(json: PointConfig): Record<string, string> {
  const files: Record<string, string> = {};
  for (const t of json.tunnels) files[`${t.name}.conf`] = renderTunnel(json, t);
  return files;
}

function renderTunnel(json: PointConfig, t: Tunnel): string {
  return lines([
    header(json, `client to ${t.centers.map((c) => c.router_name).join(', then ')}`),
    'client',
    'proto udp',
    'dev tun',
    ...t.remotes.map((r) => `remote ${r.host} ${r.port}`),
    json.local_port ? `lport ${json.local_port}` : 'nobind',
    'resolv-retry infinite',
    ...cipherLines(json),
    KEEPALIVE,
    'persist-key',
    'persist-tun',
    `route-metric ${t.route_metric}`,
    // Its own LAN comes back in the centers' pushed routes: it must stay on the LAN.
    ...json.lan.map((r) => `pull-filter ignore "route ${route(r)}"`),
    ...CERTS,
    'remote-cert-tls server',
    'verb 3',
  ]);
}
