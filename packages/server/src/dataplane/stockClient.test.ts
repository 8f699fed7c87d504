import fs from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE_PATH, authSourceCallback, editPrefix, importAllLdapUsers, reissueMemberProfile, updateRouterStatus, vpnWebSignIn, CM } from '@hublink/contract';
import { startAgent, type AgentProcess } from '../../test/agentProcess';
import { createTestApp, newAccount, type TestApp } from '../../test/helpers';
import { lanHost, type LanHost } from '../../test/lan';
import { NetLab, type NsProcess } from '../../test/netns';
import { startSlapd, type Slapd } from '../../test/slapd';
import { directoryOf, enableLdap, listing } from '../modules/ldap/fixtures';
import { createNetworkThroughApi } from '../../test/networks';
import { until } from '../../test/until';
import { GATEWAY_ADDRESS, requireLab, Wan, type Uplink } from '../../test/wan';
import { addMember } from '../modules/router/fixtures';
import { browse, startProviders, type LocalProviders } from '../../test/providers';
import { createSourceAs, grantFeature } from '../modules/auth-source/fixtures';

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
/** A member the directory holds, with the directory's password (an LDAP bind checks it). */
const DIRECTORY_USER = { uid: 'dirstaff', password: 'Directory-pass1' };
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
  const names = { center: '', staff: '', web: '', webOther: '' };
  /** A local Feishu (the documented OAuth flow): members of its source sign in on the web (WEB_AUTH). */
  let providers: LocalProviders;
  let base = '';
  const FEISHU_TENANT = 'tk-stock';
  const person = (who: 'web' | 'webOther') => ({ tenantKey: FEISHU_TENANT, unionId: `on_${who}`, openId: `ou_${who}`, name: who });
  const agents: AgentProcess[] = [];
  let slapd: Slapd | undefined;
  let client: NsProcess | undefined;
  /** The management interface of the web sign-in client, while one runs. */
  let management: net.Socket | undefined;
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
  async function profile(member = names.staff): Promise<string> {
    const res = await t!.app.inject({
      method: 'GET',
      url: `${API_BASE_PATH}/router/profile?network_number=${networkNumber}&router_name=${member}`,
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
    providers = await startProviders();
    t = await createTestApp('sqlite', { config: { apiRateLimitPerMinute: 1_000_000, trustProxy: ['127.0.0.1'], authProviders: providers.urls }, logStream: { write: (line: string) => { if (/"level":(50|40)/.test(line)) process.stderr.write(line); } } as never });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
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
    // Two members of a Feishu source, as the source leaves them (no password, bound to a Feishu user).
    await grantFeature(t, account.account.id);
    providers.feishu.apps.push({ appId: 'cli_stock', secret: 'feishu-secret-1', redirectUrls: [`${base}${API_BASE_PATH}${authSourceCallback.path}`] });
    const source = await createSourceAs(t, token, { type: 'feishu', name: '飞书登录', app_id: 'cli_stock', app_secret: 'feishu-secret-1' });
    for (const who of ['web', 'webOther'] as const) {
      names[who] = await addMember(t, token, { router_type: 2, password: PASSWORD });
      const m = await t.db.updateTable('member').set({ source: 'feishu', secret_hash: '!auth_source' }).where('router_name', '=', names[who]).returning('id').executeTakeFirstOrThrow();
      await t.db.insertInto('auth_source_member').values({ tenant_id: account.account.id, source_id: source, member_id: m.id, external_key: `${FEISHU_TENANT}/on_${who}`, create_time: Date.now() }).execute();
    }
    // A member imported from the tenant's directory (slapd): it signs in with the directory's password.
    slapd = await startSlapd();
    await enableLdap(t, account, slapd, { base_dn: await directoryOf(slapd, [DIRECTORY_USER]) });
    const imported = await t.call(importAllLdapUsers, { token, body: { hash: (await listing(t, token)).hash } });
    expect(imported.code, imported.msg).toBe(200);
    await t.ctx.events.settle();
    networkNumber = await createNetworkThroughApi(t, token, { center: [names.center], point: [names.staff, names.web, names.webOther, DIRECTORY_USER.uid] });
    await call(editPrefix, { network_number: networkNumber, prefix: [{ ip: LAN.prefix, mask: 24, name: names.center, permission: 'permit' }] });
    agents.push(startAgent(lab, up.c.ns, { name: names.center, secret: SECRET, entry: 'agent' }));
    // The profile names the address the center's device reports once it is connected.
    await waitFor(async () => (await profile()).includes(`remote ${up.c.address} 1195`), "the center's address in the profile");
  }, 180_000);

  afterAll(async () => {
    management?.destroy();
    await Promise.allSettled(agents.map((a) => a.stop()));
    await t?.close();
    await providers?.close();
    await slapd?.stop();
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

  it('admits the password: the pushed route reaches the LAN behind the center; the session is in the logs with its own bytes', async () => {
    const started = Date.now();
    connect(await profile(), `${names.staff}@${sign}`, PASSWORD);
    await waitFor(() => lab.pings(up.s.ns, host.address), "the center's LAN from the stock client");
    figures.connect = Date.now() - started;
    // The center reports the session (its status poll) as the member's, and its end with the bytes.
    const sessions = () => t!.db.selectFrom('online_log').selectAll().where('router_name', '=', names.staff).execute();
    await waitFor(async () => (await sessions()).length === 1, "the member's session in its dial-in records", 30_000);
    const online = async () => (await t!.db.selectFrom('member').select('online_status').where('router_name', '=', names.staff).executeTakeFirstOrThrow()).online_status;
    expect(await online()).toBe(1);
    await client!.stop();
    await waitFor(async () => (await sessions())[0]?.end_time != null, 'the session ended in the log', 30_000);
    expect(await online()).toBe(0);
    const [row] = await sessions();
    expect(row).toMatchObject({ link_router_name: names.center, network_number: networkNumber });
    expect(row!.orig).toMatch(new RegExp(`^${up.s.address.replace(/\./g, '\\.')}:\\d+$`));
    // Pings went both ways: the member received and sent something, counted by the center for this client.
    expect(Number(row!.bytes_in)).toBeGreaterThan(0);
    expect(Number(row!.bytes_out)).toBeGreaterThan(0);
    const logins = await t!.db.selectFrom('software_login').select(['ip', 'os']).where('router_name', '=', names.staff).execute();
    expect(logins).toEqual([{ ip: up.s.address, os: 'linux' }]);
    const connects = await t!.db.selectFrom('connect_log').select('online').where('router_name', '=', names.staff).where('reason', '=', '').orderBy('id').execute();
    expect(connects.map((c) => c.online)).toEqual([1, 0]);
  });

  it("admits a directory member's directory password (an LDAP bind), and refuses another", async () => {
    const text = await profile(DIRECTORY_USER.uid);
    const wrong = connect(text, `${DIRECTORY_USER.uid}@${sign}`, 'not-the-directory-password');
    await waitFor(() => wrong.lines.some((l) => l.text.includes('AUTH_FAILED')), 'AUTH_FAILED for a wrong directory password');
    await wrong.stop();
    connect(text, `${DIRECTORY_USER.uid}@${sign}`, DIRECTORY_USER.password);
    await waitFor(() => lab.pings(up.s.ns, host.address), 'the LAN with the directory password');
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

  /**
   * The stock client of a member of a sign-in source, as a person runs it with a client that shows the
   * sign-in page (OpenVPN Connect, the GUI): the profile alone, the management interface (a unix socket)
   * held until the test listens, and every line it prints there.
   */
  async function connectOnWeb(text: string): Promise<{ infos: string[] }> {
    await client?.stop();
    const dir = fs.mkdtempSync(path.join(lab.tempDir(), 'web-'));
    fs.writeFileSync(path.join(dir, 'web.ovpn'), text, { mode: 0o600 });
    client = lab.start(up.s.ns, 'openvpn-web', 'openvpn', ['--config', 'web.ovpn', '--management', 'mgmt.sock', 'unix', '--management-hold'], dir);
    const sock = path.join(dir, 'mgmt.sock');
    await waitFor(() => fs.existsSync(sock), "the client's management socket", 20_000);
    const infos: string[] = [];
    const m = net.createConnection(sock);
    let buffered = '';
    m.on('data', (d) => {
      buffered += String(d);
      const lines = buffered.split(/\r?\n/);
      buffered = lines.pop() ?? '';
      infos.push(...lines);
    });
    m.on('error', () => {});
    management?.destroy();
    management = m;
    await new Promise<void>((resolve) => m.once('connect', () => resolve()));
    m.write('state on\nhold release\n');
    return { infos };
  }

  /** The URL the client was told to open (`>INFOMSG:WEB_AUTH::<url>`), once it is there. */
  async function webAuthUrl(infos: string[]): Promise<string> {
    let url = '';
    await waitFor(() => {
      url = infos.find((l) => l.startsWith('>INFOMSG:WEB_AUTH::'))?.slice('>INFOMSG:WEB_AUTH::'.length) ?? '';
      return url !== '';
    }, 'WEB_AUTH on the client\'s management interface');
    return url;
  }

  /**
   * The person's browser: it opens the URL at the address the client was given (the platform as the
   * center reaches it); this test runs outside the lab's namespaces, so it reaches the same server at
   * its local address. Through the local Feishu and the callback to the page the platform shows.
   */
  async function signInOnWeb(url: string): Promise<string> {
    const u = new URL(url);
    const page = await browse(`${base}${u.pathname}${u.search}`, 'never:');
    if (page.kind !== 'page') throw new Error('the browser left the platform');
    expect(page.status).toBe(200);
    return page.body;
  }

  it('a member of a sign-in source signs in on the web (WEB_AUTH): the profile asks for no login, the tunnel comes up', async () => {
    const text = await profile(names.web);
    expect(text).not.toMatch(/^auth-user-pass/m);
    expect(text).toMatch(/^setenv IV_SSO webauth$/m);
    const started = Date.now();
    const { infos } = await connectOnWeb(text);
    const url = await webAuthUrl(infos);
    figures.webAuthPending = Date.now() - started;
    // What the client opens: the platform at the address the center reached it, one-use token.
    expect(url).toMatch(new RegExp(`^http://${GATEWAY_ADDRESS}${API_BASE_PATH}${vpnWebSignIn.path}\\?token=[A-Za-z0-9_-]{43}$`));
    await waitFor(() => infos.some((l) => /^>STATE:\d+,AUTH_PENDING/.test(l)), 'AUTH_PENDING in the client\'s state', 10_000);
    providers.feishu.signIn(person('web'));
    const signedIn = Date.now();
    expect(await signInOnWeb(url)).toContain(CM.webSignInDone);
    await waitFor(() => lab.pings(up.s.ns, host.address), "the center's LAN after the web sign-in");
    figures.webAuthSignedInToLan = Date.now() - signedIn;
    figures.webAuthConnect = Date.now() - started;
  }, UP_MS * 2);

  it('refuses a web sign-in of another member, and says why in the connect log', async () => {
    const { infos } = await connectOnWeb(await profile(names.web));
    const url = await webAuthUrl(infos);
    providers.feishu.signIn(person('webOther'));
    expect(await signInOnWeb(url)).toContain(CM.clientWebSignInOtherPerson);
    await waitFor(() => client!.lines.some((l) => l.text.includes('AUTH_FAILED')), 'AUTH_FAILED at the client');
    await client!.stop();
    const logged = (await t!.db.selectFrom('connect_log').select('reason').where('router_name', '=', names.web).where('reason', '!=', '').execute()).map((r) => r.reason);
    expect(logged).toContain('the web sign-in named another member');
  }, UP_MS * 2);
});
