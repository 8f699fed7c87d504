import dgram from 'node:dgram';
import type { AddressInfo } from 'node:net';

/*
 * An authoritative DNS server for TXT records, in the test process on 127.0.0.1 (UDP, a free port):
 * what a tenant publishes at its DNS provider. It answers TXT questions for the names it holds (each
 * value one record, split into 255-byte strings as RFC 1035 requires), NODATA for their other types
 * and NXDOMAIN for any other name, and logs each question. Point a resolver at `server` ('127.0.0.1:port').
 */

const TXT = 16;
const CLASS_IN = 1;

export interface TxtDnsServer {
  /** 'address:port', as dns.Resolver.setServers takes it. */
  server: string;
  /** The TXT records of a name (none: the name does not exist). */
  set(name: string, values: string[] | null): void;
  /** The names asked so far, with their type number. */
  questions: { name: string; type: number }[];
  stop(): Promise<void>;
}

function question(msg: Buffer): { name: string; type: number; end: number } {
  let at = 12;
  const labels: string[] = [];
  for (;;) {
    const n = msg[at];
    if (n === undefined || n > 63) throw new Error('a malformed question');
    at++;
    if (n === 0) break;
    labels.push(msg.toString('latin1', at, at + n));
    at += n;
  }
  if (at + 4 > msg.length) throw new Error('a short question');
  return { name: labels.join('.').toLowerCase(), type: msg.readUInt16BE(at), end: at + 4 };
}

/** One TXT resource record answering the question's name (a pointer to offset 12). */
function txtRecord(value: string): Buffer {
  const bytes = Buffer.from(value, 'utf8');
  const strings: Buffer[] = [];
  for (let i = 0; i < bytes.length || strings.length === 0; i += 255) {
    const part = bytes.subarray(i, i + 255);
    strings.push(Buffer.concat([Buffer.from([part.length]), part]));
  }
  const data = Buffer.concat(strings);
  const head = Buffer.alloc(12);
  head.writeUInt16BE(0xc00c, 0);
  head.writeUInt16BE(TXT, 2);
  head.writeUInt16BE(CLASS_IN, 4);
  head.writeUInt32BE(5, 6);
  head.writeUInt16BE(data.length, 10);
  return Buffer.concat([head, data]);
}

export async function startTxtDnsServer(): Promise<TxtDnsServer> {
  const records = new Map<string, string[]>();
  const questions: { name: string; type: number }[] = [];
  const socket = dgram.createSocket('udp4');
  socket.on('message', (msg, peer) => {
    let q: ReturnType<typeof question>;
    try {
      if (msg.length < 12 || msg.readUInt16BE(4) !== 1) return;
      q = question(msg);
    } catch {
      return;
    }
    questions.push({ name: q.name, type: q.type });
    const values = records.get(q.name);
    const answers = values && q.type === TXT ? values.map(txtRecord) : [];
    const header = Buffer.alloc(12);
    msg.copy(header, 0, 0, 2);
    // A response, authoritative, the recursion flag as asked; NXDOMAIN (3) for a name it does not hold.
    header[2] = 0x80 | 0x04 | (msg[2]! & 0x01);
    header[3] = values ? 0 : 3;
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(answers.length, 6);
    socket.send(Buffer.concat([header, msg.subarray(12, q.end), ...answers]), peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address() as AddressInfo;
  return {
    server: `127.0.0.1:${port}`,
    set(name, values) {
      const key = name.toLowerCase().replace(/\.$/, '');
      if (values === null) records.delete(key);
      else records.set(key, values);
    },
    questions,
    stop: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
