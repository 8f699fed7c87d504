import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostCommands } from './commands';
import { NAT_TABLE, readNat, setNat } from './nat';
import { enableForwarding } from './sysctl';
import { HostLab, requireHostTools } from './testLab';

/*
 * client ─ hl9 ─ advertiser ─ vc ─ internet (203.0.113.2, and 192.0.2.50 standing for an address inside
 * the network); advertiser ─ hl8 ─ peer (another tunnel's far side). The advertiser's hl9 and hl8 are veths
 * standing in for tunnel devices (a real tun needs openvpn to carry traffic). Every namespace has a route
 * back, so an unmasqueraded packet is answered too: a UDP echo answers with the source address it saw.
 */
const PORT = 5353;
const ECHO_SERVER = `const s = require('node:dgram').createSocket('udp4');
s.on('message', (m, r) => s.send(r.address, r.port, r.address));
s.bind(Number(process.argv[1]), process.argv[2], () => console.log('listening'));`;
const ECHO_CLIENT = `const [address, port, bound] = process.argv.slice(1);
const s = require('node:dgram').createSocket('udp4');
s.on('message', (m) => { console.log(String(m)); process.exit(0); });
s.send('who am I', Number(port), address);
setTimeout(() => { console.error('no answer from ' + address); process.exit(1); }, Number(bound));`;
const ANSWER_BOUND_MS = 3000;

describe('masquerading for the default route, tunnel traffic only', () => {
  const lab = new HostLab('hlnat');
  let client: HostCommands;
  let advertiser: HostCommands;

  /** The source address the echo server at `address` saw for a packet from the client. */
  async function seenFrom(from: HostCommands, address: string): Promise<string> {
    return (await from.run(process.execPath, ['-e', ECHO_CLIENT, address, String(PORT), String(ANSWER_BOUND_MS)])).trim();
  }

  /** Bound to its address, so it answers from it (the address the client's packet went to). */
  async function echoServer(ns: string, address: string): Promise<void> {
    const child = lab.start(ns, process.execPath, ['-e', ECHO_SERVER, String(PORT), address]);
    await new Promise<void>((resolve, reject) => {
      let output = '';
      child.stdout!.on('data', (d: Buffer) => (output += d.toString()) && output.includes('listening') && resolve());
      child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
      child.on('exit', (code) => reject(new Error(`echo server in ${ns} ended (${code}): ${output}`)));
    });
  }

  beforeAll(async () => {
    requireHostTools();
    await lab.removeLeftovers();
    const [a, b, c, d] = [await lab.namespace('client'), await lab.namespace('advertiser'), await lab.namespace('internet'), await lab.namespace('peer')];
    [client, advertiser] = [lab.commands(a), lab.commands(b)];
    await lab.veth(a, 'va', '198.51.100.2/24', b, 'hl9', '198.51.100.1/24');
    await lab.veth(b, 'vc', '203.0.113.1/24', c, 'vb', '203.0.113.2/24');
    await lab.veth(b, 'hl8', '100.64.8.1/24', d, 'vd', '100.64.8.2/24');
    const ip = (ns: string, ...args: string[]) => lab.commands(ns).run('ip', args);
    await ip(a, 'route', 'add', 'default', 'via', '198.51.100.1');
    await ip(d, 'route', 'add', 'default', 'via', '100.64.8.1');
    await ip(c, 'address', 'add', '192.0.2.50/32', 'dev', 'vb');
    await ip(c, 'route', 'add', '198.51.100.0/24', 'via', '203.0.113.1');
    await ip(b, 'route', 'add', '192.0.2.50/32', 'via', '203.0.113.2');
    await enableForwarding(advertiser);
    await echoServer(c, '203.0.113.2');
    await echoServer(c, '192.0.2.50');
    await echoServer(d, '100.64.8.2');
    await echoServer(a, '198.51.100.2');
  });
  afterAll(() => lab.close());

  it('without the table, nothing is masqueraded', async () => {
    expect(await readNat(advertiser)).toBeNull();
    expect(await seenFrom(client, '203.0.113.2')).toBe('198.51.100.2');
  });

  it('masquerades what comes from a tunnel and goes out of the network, not what goes inside it or to another tunnel', async () => {
    await setNat(advertiser, { internal: ['192.0.2.0/24'] });
    expect(await seenFrom(client, '203.0.113.2')).toBe('203.0.113.1');
    expect(await seenFrom(client, '192.0.2.50')).toBe('198.51.100.2');
    // 100.64.8.2 is outside `internal`, but behind another tunnel.
    expect(await seenFrom(client, '100.64.8.2')).toBe('198.51.100.2');
  });

  it('decides by the device a packet came in on: from any tunnel it is masqueraded, from elsewhere it keeps its source', async () => {
    await setNat(advertiser, { internal: [] });
    // The peer is behind hl8, another tunnel.
    expect(await seenFrom(lab.commands(lab.ns('peer')), '203.0.113.2')).toBe('203.0.113.1');
    // The internet's traffic to the client comes in on vc.
    expect(await seenFrom(lab.commands(lab.ns('internet')), '198.51.100.2')).toBe('203.0.113.2');
  });

  it('with an empty internal set, everything from a tunnel to a non-tunnel device is masqueraded', async () => {
    await setNat(advertiser, { internal: [] });
    expect(await readNat(advertiser)).toEqual({ internal: [] });
    expect(await seenFrom(client, '192.0.2.50')).toBe('203.0.113.1');
  });

  it('reads back the set as written: canonical, sorted, nested prefixes dropped; the same state twice changes nothing', async () => {
    const internal = ['192.0.2.0/24', '10.1.2.3/16', '10.0.0.0/8', '192.0.2.0/24', '100.64.0.0/10', '198.51.100.7'];
    await setNat(advertiser, { internal });
    await setNat(advertiser, { internal });
    expect(await readNat(advertiser)).toEqual({ internal: ['10.0.0.0/8', '100.64.0.0/10', '192.0.2.0/24', '198.51.100.7/32'] });
    const table = await advertiser.run('nft', ['list', 'table', 'ip', NAT_TABLE]);
    expect(table).toContain('iifname "hl*" oifname != "hl*" ip daddr != @internal masquerade');
    expect(table.match(/masquerade/g)).toHaveLength(1);
  });

  it("removes its table, again without error, and leaves others' tables alone", async () => {
    await advertiser.run('nft', ['add', 'table', 'ip', 'theirs']);
    await setNat(advertiser, { internal: ['192.0.2.0/24'] });
    await setNat(advertiser, null);
    await setNat(advertiser, null);
    expect(await readNat(advertiser)).toBeNull();
    expect(await advertiser.run('nft', ['list', 'tables'])).toBe('table ip theirs\n');
    expect(await seenFrom(client, '203.0.113.2')).toBe('198.51.100.2');
  });

  it('refuses what is not a prefix before nft sees it', async () => {
    await expect(setNat(advertiser, { internal: ['10.0.0.0/40'] })).rejects.toThrow("not an IPv4 prefix: '10.0.0.0/40'");
  });
});
