/*
 * Parsers for OpenVPN's management interface (openvpn(8) "--management", and management-notes.txt):
 * real-time lines start with '>' (>BYTECOUNT, >BYTECOUNT_CLI, >STATE); `status 3` answers with tab-separated
 * CLIENT_LIST rows on a server and comma-separated counters on a client; `state` answers with bare state lines.
 * Multi-line answers end with END; one-line answers start with SUCCESS: or ERROR:.
 */

export interface OpenvpnState {
  /** Epoch seconds of the change. */
  time: number;
  /** CONNECTING, WAIT, AUTH, GET_CONFIG, ASSIGN_IP, ADD_ROUTES, CONNECTED, RECONNECTING, EXITING, … */
  state: string;
  detail: string;
  /** The tunnel's local address (a client's assigned address; the server's own). */
  localIp: string;
  /** The server a client reached ('' on a server). */
  remoteIp: string;
  remotePort: number;
}

export interface OpenvpnClient {
  commonName: string;
  /** address:port it connects from. */
  realAddress: string;
  virtualAddress: string;
  bytesReceived: number;
  bytesSent: number;
  /** Epoch seconds. */
  connectedSince: number;
  clientId: number;
}

/** A >CLIENT: notification of a server with management-client-auth, its ENV lines gathered. */
export interface ClientNotification {
  /** CONNECT, REAUTH, ESTABLISHED, DISCONNECT, CR_RESPONSE, … */
  event: string;
  clientId: number;
  /** -1 where the notification has none (ESTABLISHED, DISCONNECT). */
  keyId: number;
  env: Record<string, string>;
}

export type RealtimeEvent =
  | { type: 'client'; client: ClientNotification }
  | { type: 'bytecount'; bytesIn: number; bytesOut: number }
  | { type: 'bytecount_cli'; clientId: number; bytesIn: number; bytesOut: number }
  | { type: 'state'; state: OpenvpnState }
  | { type: 'other'; line: string };

const int = (text: string | undefined): number => {
  const n = Number(text);
  return Number.isFinite(n) ? n : 0;
};

/** One line of a `state` answer or of a >STATE: notification (without the prefix). */
export function parseStateLine(line: string): OpenvpnState | null {
  const f = line.split(',');
  if (f.length < 2 || !/^\d+$/.test(f[0]!)) return null;
  return { time: int(f[0]), state: f[1]!, detail: f[2] ?? '', localIp: f[3] ?? '', remoteIp: f[4] ?? '', remotePort: int(f[5]) };
}

export function parseRealtime(line: string): RealtimeEvent {
  const colon = line.indexOf(':');
  const kind = line.slice(1, colon);
  const f = line.slice(colon + 1).split(',');
  if (kind === 'BYTECOUNT' && f.length >= 2) return { type: 'bytecount', bytesIn: int(f[0]), bytesOut: int(f[1]) };
  if (kind === 'BYTECOUNT_CLI' && f.length >= 3) return { type: 'bytecount_cli', clientId: int(f[0]), bytesIn: int(f[1]), bytesOut: int(f[2]) };
  if (kind === 'STATE') {
    const state = parseStateLine(line.slice(colon + 1));
    if (state) return { type: 'state', state };
  }
  return { type: 'other', line };
}

export interface ServerStatus {
  kind: 'server';
  clients: OpenvpnClient[];
}

export interface ClientStatus {
  kind: 'client';
  /** Bytes through the tunnel device (what the LAN sent and received). */
  tunRead: number;
  tunWrite: number;
  /** Bytes on the wire (encrypted). */
  linkRead: number;
  linkWrite: number;
}

/** The lines of a `status 3` answer (END excluded or not). Columns are found by the HEADER row's names. */
export function parseStatus(lines: string[]): ServerStatus | ClientStatus {
  if (lines.some((l) => l.startsWith('TITLE\t') || l.startsWith('CLIENT_LIST\t') || l.startsWith('HEADER\t'))) {
    let columns: string[] = [];
    const clients: OpenvpnClient[] = [];
    for (const line of lines) {
      const f = line.split('\t');
      if (f[0] === 'HEADER' && f[1] === 'CLIENT_LIST') columns = f.slice(2);
      if (f[0] !== 'CLIENT_LIST') continue;
      const col = (name: string) => f[1 + columns.indexOf(name)] ?? '';
      if (!columns.length) continue;
      clients.push({
        commonName: col('Common Name'),
        realAddress: col('Real Address'),
        virtualAddress: col('Virtual Address'),
        bytesReceived: int(col('Bytes Received')),
        bytesSent: int(col('Bytes Sent')),
        connectedSince: int(col('Connected Since (time_t)')),
        clientId: int(col('Client ID')),
      });
    }
    return { kind: 'server', clients };
  }
  const value = (name: string) => {
    const line = lines.find((l) => l.startsWith(`${name},`) || l.startsWith(`${name}\t`));
    return line ? int(line.slice(name.length + 1)) : 0;
  };
  return { kind: 'client', tunRead: value('TUN/TAP read bytes'), tunWrite: value('TUN/TAP write bytes'), linkRead: value('TCP/UDP read bytes'), linkWrite: value('TCP/UDP write bytes') };
}

/**
 * Gathers the lines of >CLIENT: notifications: a head (`>CLIENT:CONNECT,{CID},{KID}`), its
 * `>CLIENT:ENV,name=value` lines, and `>CLIENT:ENV,END` (management-notes.txt: the block is atomic).
 * ADDRESS is one line and carries no ENV.
 */
export class ClientBlocks {
  private open: ClientNotification | null = null;

  /** One >CLIENT: line; the whole notification once its block ends. */
  feed(line: string): ClientNotification | null {
    const body = line.slice('>CLIENT:'.length);
    if (body.startsWith('ENV,')) {
      const pair = body.slice(4);
      if (pair === 'END') {
        const done = this.open;
        this.open = null;
        return done;
      }
      const eq = pair.indexOf('=');
      if (this.open && eq > 0) this.open.env[pair.slice(0, eq)] = pair.slice(eq + 1);
      return null;
    }
    const [event = '', cid, kid] = body.split(',');
    if (event === 'ADDRESS') return null;
    this.open = { event, clientId: int(cid), keyId: kid === undefined ? -1 : int(kid), env: {} };
    return null;
  }
}
