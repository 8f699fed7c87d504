import fs from 'node:fs';
import path from 'node:path';
import type { NetLab, NsProcess } from './netns';
import { writeScript } from './wan';

/*
 * A LAN's DNS server for the data-plane laboratory: a tiny UDP responder (node:dgram) run in a
 * namespace on one address, port 53. It answers A questions for the names it was given (set() changes
 * them while it runs: it reads its records file on each question), NODATA for their other types, and
 * NXDOMAIN for any other name; authoritative, so a resolver takes the answer at once. Each question is
 * logged with the address it came from (queries()): a test can tell whose resolver asked.
 *
 * resolve() asks as a program in a namespace does: `getent hosts NAME` under `ip netns exec`, which
 * reads /etc/netns/<ns>/resolv.conf as /etc/resolv.conf (NetLab.namespace's resolvConf).
 */

export interface DnsQuery {
  at: number;
  from: string;
  name: string;
  /** 'A', 'AAAA', or the type's number. */
  type: string;
}

export class DnsServer {
  constructor(
    readonly ns: string,
    readonly address: string,
    private readonly file: string,
    private readonly records: Map<string, string>,
    readonly process: NsProcess,
  ) {}

  /** Sets a name's A record (null: removes it); answered from the next question on. */
  set(name: string, address: string | null): void {
    const key = name.toLowerCase().replace(/\.$/, '');
    if (address === null) this.records.delete(key);
    else this.records.set(key, address);
    const tmp = `${this.file}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(Object.fromEntries(this.records)));
    fs.renameSync(tmp, this.file);
  }

  /** The questions it was asked so far. */
  queries(): DnsQuery[] {
    return this.process.lines.flatMap((l) => {
      const m = /^query (\S+) (\S+) (\S+)$/.exec(l.text);
      return m ? [{ at: l.at, from: m[1]!, name: m[2]!, type: m[3]! }] : [];
    });
  }

  stop(): Promise<void> {
    return this.process.stop();
  }
}

/** Starts a DNS server in `ns` on `address` (which must be one of the namespace's) answering `records` (name → IPv4). */
export async function startDnsServer(lab: NetLab, ns: string, address: string, records: Record<string, string> = {}): Promise<DnsServer> {
  const file = path.join(lab.tempDir(), `dns-${ns}-${address}.json`);
  const script = writeScript(lab, 'dns.cjs', DNS);
  const proc = lab.start(ns, `dns ${address}`, process.execPath, [script, address, file], lab.tempDir());
  const server = new DnsServer(ns, address, file, new Map(), proc);
  for (const [name, value] of Object.entries(records)) server.set(name, value);
  if (Object.keys(records).length === 0) fs.writeFileSync(file, '{}');
  await proc.waitForLine(/^listening/);
  return server;
}

/**
 * What a program in `ns` gets for `name` (`getent hosts`, through the namespace's resolv.conf): the
 * first address, or null when the name does not resolve (NXDOMAIN, or no server answering in
 * glibc's time: 5 s a try by default).
 */
export async function resolve(lab: NetLab, ns: string, name: string): Promise<string | null> {
  try {
    const out = await lab.exec(ns, 'getent', ['hosts', name]);
    return out.trim().split(/\s+/)[0] || null;
  } catch {
    return null;
  }
}

/** node dns.cjs ADDRESS RECORDS.json */
const DNS = String.raw`
const dgram = require('node:dgram');
const fs = require('node:fs');
const [address, file] = process.argv.slice(2);
const TYPES = { 1: 'A', 28: 'AAAA', 5: 'CNAME', 15: 'MX', 16: 'TXT', 33: 'SRV', 65: 'HTTPS' };

function question(msg) {
  let at = 12;
  const labels = [];
  while (at < msg.length) {
    const n = msg[at];
    if (n === 0) { at++; break; }
    if (n > 63) throw new Error('compressed name in a question');
    labels.push(msg.toString('latin1', at + 1, at + 1 + n));
    at += 1 + n;
  }
  if (at + 4 > msg.length) throw new Error('short question');
  return { name: labels.join('.').toLowerCase(), type: msg.readUInt16BE(at), klass: msg.readUInt16BE(at + 2), end: at + 4 };
}

const socket = dgram.createSocket('udp4');
socket.on('message', (msg, rinfo) => {
  let q;
  try {
    if (msg.length < 12 || msg.readUInt16BE(4) !== 1) return;
    q = question(msg);
  } catch {
    return;
  }
  console.log('query ' + rinfo.address + ' ' + q.name + ' ' + (TYPES[q.type] || q.type));
  let records = {};
  try { records = JSON.parse(fs.readFileSync(file, 'utf8')); } catch {}
  const known = Object.prototype.hasOwnProperty.call(records, q.name);
  const answer = known && q.type === 1 && q.klass === 1;
  const header = Buffer.alloc(12);
  msg.copy(header, 0, 0, 2);
  // QR, AA, the RD asked for, RA; NXDOMAIN (3) for an unknown name.
  header[2] = 0x80 | 0x04 | (msg[2] & 0x01);
  header[3] = 0x80 | (known ? 0 : 3);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(answer ? 1 : 0, 6);
  const parts = [header, msg.subarray(12, q.end)];
  if (answer) {
    const rr = Buffer.alloc(16);
    rr.writeUInt16BE(0xc00c, 0);
    rr.writeUInt16BE(1, 2);
    rr.writeUInt16BE(1, 4);
    rr.writeUInt32BE(5, 6);
    rr.writeUInt16BE(4, 10);
    records[q.name].split('.').forEach((p, i) => (rr[12 + i] = Number(p)));
    parts.push(rr);
  }
  socket.send(Buffer.concat(parts), rinfo.port, rinfo.address);
});
socket.bind(53, address, () => console.log('listening ' + address + ':53'));
`;
