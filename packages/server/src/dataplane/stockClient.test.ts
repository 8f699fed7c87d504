import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE_PATH, editPrefix, reissueMemberProfile, updateRouterStatus } from '@hublink/contract';
import { startAgent, type AgentProcess } from '../../test/agentProcess';
import { createTestApp, newAccount, type TestApp } from '../../test/helpers';
import { lanHost, type LanHost } from '../../test/lan';
import { NetLab, type NsProcess } from '../../test/netns';
import { createNetworkThroughApi } from '../../test/networks';
import { until } from '../../test/until';
import { requireLab, Wan, type Uplink } from '../../test/wan';
import { addMember } from '../modules/router/fixtures';

/*
 * Any standard OpenVPN client is a HubLink client (issue 30), in namespaces: a center run by a real
 * `hublink agent` with a LAN behind it, and the stock `openvpn` command as a member's client, started
 * with nothing but the profile downloaded through the API and a login typed in. The center's agent
 * asks the platform about each client (management-client-auth); the routes to the center's LAN come
 * from the center's pushes. Revocation is measured from the console's call to the client's last packet.
 */

const SECRET = 'devsecret1';
const PASSWORD = 'Staff-pass1';
const PHONE = '13800138000';
const UP_MS = 90_000;
/** What issue 30 promises for disabling, deleting or re-issuing a member. */
const REVOKE_MS = 5_000;
const LAN = { member: '10.1.0.1/24', host: '10.1.0.10/24', prefix: '10.1.0.0' };

describe('a stock OpenVPN client with a downloaded profile', () => {
  const lab = new NetLab('hlstock');
  let t: TestApp | undefined;
  let token = '';
  let sign = '';
  let wan: Wan;
  let networkNumber = '';
  const up = {} as Record<'c' | 's', Uplink>;
  let host: LanHost;
  const names = { center: '', staff: '' };
  const agents: AgentProcess[] = [];
  let client: NsProcess | undefined;
  const figures: Record<string, number> = {};

  const diagnosis = () => [...agents.map((a) => a.diagnosis(30, 40)), `--- openvpn client:\n${client?.log(40) ?? ''}`].join('\n');

  async function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs = UP_MS): Promise<void> {
    try {
      await until(check, what, timeoutMs);
    } catch (e) {
      throw new Error(`${(e as Error).message}\n${diagnosis()}`);
    }
  }

  async function call(endpoint: Parameters<TestApp['call']>[0], body: Record<string, unknown>) {
    const res = await t!.call(endpoint, { token, body } as never);
    expect([res.code, res.msg], `${endpoint.path} ${JSON.stringify(body)}`).toEqual([200, expect.any(String)]);
    await t!.ctx.events.settle();
  }

  /** The profile as the console's download button gets it. */
  async function profile(): Promise<string> {
    const res = await t!.app.inject({
      method: 'GET',
      url: `${API_BASE_PATH}/router/profile?network_number=${networkNumber}&router_name=${names.staff}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('application/x-openvpn-profile');
    return res.body;
  }

  /** The stock client: `openvpn --config <profile> --auth-user-pass <file>`, as a person runs it. */
  function connect(text: string, username: string, password: string): NsProcess {
    const dir = fs.mkdtempSync(path.join(lab.tempDir(), 'client-'));
    fs.writeFileSync(path.join(dir, 'staff.ovpn'), text, { mode: 0o600 });
    fs.writeFileSync(path.join(dir, 'login.txt'), `${username}\n${password}\n`, { mode: 0o600 });
    client = lab.start(up.s.ns, 'openvpn', 'openvpn', ['--config', 'staff.ovpn', '--auth-user-pass', 'login.txt'], dir);
    return client;
  }

  const reasons = async () => (await t!.db.selectFrom('connect_log').select('reason').where('router_name', '=', names.staff).where('reason', '!=', '').orderBy('id').execute()).map((r) => r.reason);

  /** The time from `act` until the client's traffic to the LAN stops. */
  async function cutOff(act: () => Promise<void>): Promise<number> {
    const started = Date.now();
    await act();
    await waitFor(async () => !(await lab.pings(up.s.ns, host.address, 0.3)), 'the client cut off', REVOKE_MS * 4);
    return Date.now() - started;
  }

  beforeAll(async () => {
    await requireLab();
    await lab.removeLeftovers();
    t = await createTestApp('sqlite', { config: { apiRateLimitPerMinute: 1_000_000, trustProxy: ['127.0.0.1'] }, logStream: { write: (line: string) => { if (/"level":(50|40)/.test(line)) process.stderr.write(line); } } as never });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const account = await newAccount(t);
    token = account.token;
    await t.db.updateTable('account').set({ auth_quagga: 1 }).where('id', '=', account.account.id).execute();
    sign = (await t.db.selectFrom('account').select('sign').where('id', '=', account.account.id).executeTakeFirstOrThrow()).sign;
    wan = await Wan.create(lab);
    await wan.gateway((t.app.server.address() as AddressInfo).port, { forwardedFor: true });
    for (const d of ['c', 's'] as const) up[d] = await wan.device(d);
    host = await lanHost(lab, up.c.ns, { name: 'hc', memberAddress: LAN.member, hostAddress: LAN.host });
    names.center = await addMember(t, token, { router_type: 1, password: SECRET });
    names.staff = await addMember(t, token, { router_type: 2, password: PASSWORD });
    await t.db.updateTable('member').set({ phone: PHONE }).where('router_name', '=', names.staff).execute();
    networkNumber = await createNetworkThroughApi(t, token, { center: [names.center], point: [names.staff] });
    await call(editPrefix, { network_number: networkNumber, prefix: [{ ip: LAN.prefix, mask: 24, name: names.center, permission: 'permit' }] });
    agents.push(startAgent(lab, up.c.ns, { name: names.center, secret: SECRET, entry: 'agent' }));
    // The profile names the address the center's device reports once it is connected.
    await waitFor(async () => (await profile()).includes(`remote ${up.c.address} 1195`), "the center's address in the profile");
  }, 180_000);

  afterAll(async () => {
    await Promise.allSettled(agents.map((a) => a.stop()));
    await t?.close();
    await lab.close();
    console.log(`stock client figures (ms): ${JSON.stringify(figures)}`);
  });

  it("holds this member's certificate and key, inline, and nothing of anyone else's", async () => {
    const text = await profile();
    for (const tag of ['ca', 'cert', 'key', 'tls-crypt']) expect(text).toMatch(new RegExp(`<${tag}>\\n-----BEGIN [^\\n]+\\n[\\s\\S]+\\n</${tag}>`));
    expect(text).toContain('auth-user-pass');
    expect(text).not.toMatch(/^(ca|cert|key|tls-crypt) \S/m);
    const cert = new (await import('node:crypto')).X509Certificate(/<cert>\n([\s\S]+?)\n<\/cert>/.exec(text)![1]!);
    expect(cert.subject).toContain(`CN=${names.staff}`);
  });

  it('refuses a wrong password, with the reason in the connect log', async () => {
    const c = connect(await profile(), `${names.staff}@${sign}`, 'not-the-password');
    await waitFor(() => c.lines.some((l) => l.text.includes('AUTH_FAILED')), 'AUTH_FAILED at the client');
    await c.stop();
    expect(await reasons()).toContain('wrong password');
  });

  it('admits the password: the pushed route reaches the LAN behind the center', async () => {
    const started = Date.now();
    connect(await profile(), `${names.staff}@${sign}`, PASSWORD);
    await waitFor(() => lab.pings(up.s.ns, host.address), "the center's LAN from the stock client");
    figures.connect = Date.now() - started;
    await client!.stop();
  });

  it('admits the phone the member bound for login', async () => {
    connect(await profile(), PHONE, PASSWORD);
    await waitFor(() => lab.pings(up.s.ns, host.address), 'the LAN with a phone login');
  });

  it('re-issuing the profile cuts the old one off within 5 s; the new one connects', async () => {
    figures.reissue = await cutOff(() => call(reissueMemberProfile, { router_name: names.staff }));
    expect(figures.reissue).toBeLessThanOrEqual(REVOKE_MS);
    await client!.stop();
    // The old profile stays refused; the new one is admitted.
    const fresh = await profile();
    connect(fresh, `${names.staff}@${sign}`, PASSWORD);
    await waitFor(() => lab.pings(up.s.ns, host.address), 'the LAN with the re-issued profile');
  }, UP_MS);

  it('disabling the member cuts its client off within 5 s, and it cannot come back', async () => {
    figures.disable = await cutOff(() => call(updateRouterStatus, { router_name: names.staff }));
    expect(figures.disable).toBeLessThanOrEqual(REVOKE_MS);
    await waitFor(async () => (await reasons()).includes('member disabled'), "the refusal's reason in the connect log", 20_000);
  }, UP_MS);
});
