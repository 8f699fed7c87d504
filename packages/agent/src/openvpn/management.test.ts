import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRealtime, parseStateLine, parseStatus } from './management';
import { ManagementClient } from './managementClient';
import type { RealtimeEvent } from './management';

/*
 * The fixtures are what OpenVPN 2.6.14 (Debian) answered on its management port: a center serving one
 * point (`status 3`, `bytecount 1`, `state`) and the point (`state`, `status 3`), captured with a real
 * server and client in a network namespace.
 */
const fixture = (name: string) => readFileSync(join(__dirname, 'fixtures', name), 'utf8');

describe('management parsers', () => {
  it('reads a server status 3 client list by its header columns', () => {
    const lines = fixture('server-session.txt').split('\n');
    const end = lines.indexOf('END');
    expect(parseStatus(lines.slice(0, end))).toEqual({
      kind: 'server',
      clients: [{ commonName: 'store1', realAddress: '127.0.0.1:47334', virtualAddress: '100.64.0.2', bytesReceived: 2111, bytesSent: 2128, connectedSince: 1795405378, clientId: 0 }],
    });
  });

  it('reads a client status as counters', () => {
    const lines = fixture('client-session.txt').split('\n');
    const start = lines.indexOf('OpenVPN STATISTICS');
    expect(parseStatus(lines.slice(start))).toEqual({ kind: 'client', tunRead: 96, tunWrite: 48, linkRead: 2234, linkWrite: 2291 });
  });

  it('reads state lines and real-time notifications', () => {
    expect(parseStateLine('1795405378,CONNECTED,SUCCESS,100.64.0.2,127.0.0.1,17701,,')).toEqual({
      time: 1795405378,
      state: 'CONNECTED',
      detail: 'SUCCESS',
      localIp: '100.64.0.2',
      remoteIp: '127.0.0.1',
      remotePort: 17701,
    });
    expect(parseStateLine('SUCCESS: real-time state notification set to ON')).toBeNull();
    expect(parseRealtime('>BYTECOUNT:272,204')).toEqual({ type: 'bytecount', bytesIn: 272, bytesOut: 204 });
    expect(parseRealtime('>BYTECOUNT_CLI:0,2223,2208')).toEqual({ type: 'bytecount_cli', clientId: 0, bytesIn: 2223, bytesOut: 2208 });
    expect(parseRealtime('>STATE:1795405367,EXITING,SIGTERM,,,,,')).toMatchObject({ type: 'state', state: { state: 'EXITING', detail: 'SIGTERM', remotePort: 0 } });
    expect(parseRealtime('>HOLD:Waiting for hold release:0')).toEqual({ type: 'other', line: '>HOLD:Waiting for hold release:0' });
  });
});

describe('ManagementClient', () => {
  it('matches answers to commands in order while real-time lines arrive in between', async () => {
    const written: string[] = [];
    const events: RealtimeEvent[] = [];
    const m = new ManagementClient((e) => events.push(e));
    // No socket: answers are fed as the server's bytes would arrive, split at awkward places.
    (m as unknown as { socket: { write: (s: string) => void } }).socket = { write: (s: string) => written.push(s) };
    const status = m.command('status 3');
    const bytecount = m.command('bytecount 1');
    const state = m.command('state');
    const text = fixture('server-session.txt').replace(/\n/g, '\r\n');
    const interleaved = text.replace('GLOBAL_STATS', '>BYTECOUNT_CLI:0,1,2\r\nGLOBAL_STATS');
    for (let i = 0; i < interleaved.length; i += 37) m.onData(interleaved.slice(i, i + 37));
    expect(written).toEqual(['status 3\n', 'bytecount 1\n', 'state\n']);
    expect(parseStatus(await status)).toMatchObject({ kind: 'server', clients: [{ commonName: 'store1' }] });
    expect(await bytecount).toEqual(['SUCCESS: bytecount interval changed']);
    expect(await state).toEqual(['1795405376,CONNECTED,SUCCESS,100.64.0.1,,,,']);
    expect(events.map((e) => e.type)).toEqual(['bytecount_cli', 'bytecount_cli', 'bytecount_cli']);
  });

  it('rejects a command the server refuses', async () => {
    const m = new ManagementClient(() => {});
    (m as unknown as { socket: { write: () => void } }).socket = { write: () => {} };
    const answer = m.command('status 9');
    m.onData('ERROR: unknown status format\r\n');
    await expect(answer).rejects.toThrow('ERROR: unknown status format');
  });
});
