import { describe, expect, it } from 'vitest';
import { answerCommand, clientPushes, requestOf } from './clientAuth';
import type { RealtimeEvent } from './management';
import { ManagementClient } from './managementClient';

/* What a center's openvpn with management-client-auth says about a client, and what the agent answers (management-notes.txt). */
describe('client authentication through the management interface', () => {
  it('gathers a >CLIENT:CONNECT block with its ENV lines, even between the lines of an answer', async () => {
    const events: RealtimeEvent[] = [];
    const m = new ManagementClient((e) => events.push(e));
    m.onData('>CLIENT:CONNECT,7,1\n>CLIENT:ENV,common_name=alice\n>CLIENT:ENV,username=alice@corp\n>CLIENT:ENV,password=p=a,ss\n');
    expect(events).toEqual([]);
    m.onData('>CLIENT:ENV,tls_serial_0=255\n>CLIENT:ENV,untrusted_ip=198.51.100.6\n>CLIENT:ENV,untrusted_port=41000\n>CLIENT:ENV,IV_PLAT=win\n>CLIENT:ENV,IV_SSO=webauth\n>CLIENT:ENV,END\n');
    expect(events).toHaveLength(1);
    const e = events[0]!;
    if (e.type !== 'client') throw new Error('not a client event');
    expect([e.client.event, e.client.clientId, e.client.keyId]).toEqual(['CONNECT', 7, 1]);
    expect(requestOf(e.client)).toEqual({
      commonName: 'alice',
      serial: '255',
      username: 'alice@corp',
      password: 'p=a,ss',
      orig: '198.51.100.6:41000',
      reauth: false,
      platform: 'win',
      clientVersion: '',
      sso: 'webauth',
      hwaddr: '',
    });
  });

  it('reads ESTABLISHED and DISCONNECT without a key id, and ignores ADDRESS', () => {
    const events: RealtimeEvent[] = [];
    const m = new ManagementClient((e) => events.push(e));
    m.onData('>CLIENT:ADDRESS,7,100.64.16.2,1\n>CLIENT:DISCONNECT,7\n>CLIENT:ENV,bytes_received=10\n>CLIENT:ENV,END\n');
    expect(events).toEqual([{ type: 'client', client: { event: 'DISCONNECT', clientId: 7, keyId: -1, env: { bytes_received: '10' } } }]);
  });

  it('answers accept, deny (reasons quoted, nothing that breaks the quoting) and pending web sign-in', () => {
    const n = { clientId: 7, keyId: 1 };
    expect(answerCommand(n, { verdict: 'accept' })).toBe('client-auth-nt 7 1');
    expect(answerCommand(n, { verdict: 'deny', reason: 'wrong "password"\\', clientReason: '账号或密码错误' })).toBe('client-deny 7 1 "wrong  password  " "账号或密码错误"');
    expect(answerCommand(n, { verdict: 'deny', reason: 'x', clientReason: '' })).toBe('client-deny 7 1 "x"');
    expect(answerCommand(n, { verdict: 'pending', url: 'https://hub.example/vpn/abc', timeout: 50, final: new Promise(() => {}) })).toBe('client-pending-auth 7 1 WEB_AUTH::https://hub.example/vpn/abc 50');
  });

  it('admits with the routes and DNS a client without the agent needs, in one client-auth block', () => {
    const config = { lan: ['10.1.0.0/24'], routes: [{ prefixes: ['10.2.0.0/16', '0.0.0.0/0', 'junk'], via: [] }], dns: ['10.1.0.53', 'not-an-address'] };
    const pushes = clientPushes(config);
    expect(pushes).toEqual(['push "route 10.1.0.0 255.255.255.0"', 'push "route 10.2.0.0 255.255.0.0"', 'push "dhcp-option DNS 10.1.0.53"']);
    expect(answerCommand({ clientId: 3, keyId: 0 }, { verdict: 'accept', config: pushes })).toBe(['client-auth 3 0', ...pushes, 'END'].join('\n'));
    expect(answerCommand({ clientId: 3, keyId: 0 }, { verdict: 'accept', config: [] })).toBe('client-auth-nt 3 0');
    expect(clientPushes({})).toEqual([]);
  });
});
