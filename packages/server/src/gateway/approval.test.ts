import type { AddressInfo } from 'node:net';
import { beforeAll, expect, it } from 'vitest';
import { approveDevice, DEVICE_CLOSE, listDeviceApprovals, refuseDevice, ROUTER_TYPE, saveDeviceApprovalSetting, type DeviceApprovalItem } from '@hublink/contract';
import { TestDevice, routerHello } from '../../test/device';
import { describeEachDatabase, newAccount } from '../../test/helpers';
import { SEEDED_MEMBER_SECRET, seedFreshMembers } from '../../test/networks';
import { until } from '../../test/until';
import { deviceApproval } from './approval';

/** Devices join by approval (issue 30), through real hellos on the gateway's WebSocket. */
describeEachDatabase('device gateway: devices join by approval', (t) => {
  let base: string;
  let a: Awaited<ReturnType<typeof newAccount>>;
  let sign: string;
  const open: TestDevice[] = [];

  const connect = async () => {
    const d = await TestDevice.open(base);
    open.push(d);
    return d;
  };
  /** One hello on a new socket: the welcome, or how the socket closed. */
  const hello = async (message: object) => {
    const d = await connect();
    d.send(message);
    await until(() => d.closed !== undefined || d.received.some((m) => m.type === 'welcome'), 'a welcome or a close');
    return d;
  };
  const appHello = (login: string, device_id: string | undefined, extra: object = {}) => ({
    type: 'hello',
    protocol: 1,
    kind: 'app',
    login,
    secret: SEEDED_MEMBER_SECRET,
    ...(device_id ? { device_id } : {}),
    os: 'windows',
    version: '3.1.0',
    sys_brand: 'Lenovo',
    sys_model: 'ThinkPad X1',
    sys_version: '11',
    ...extra,
  });
  const setApproval = async (enabled: 0 | 1) => expect((await t().call(saveDeviceApprovalSetting, { token: a.token, body: { enabled } })).code).toBe(200);
  const listed = async (name: string): Promise<DeviceApprovalItem[]> =>
    (await t().call(listDeviceApprovals, { token: a.token, query: { page: 1, limit: 100, state: 'all', search: name } })).data!.filter((d) => d.router_name === name);
  const memberId = async (name: string) => (await t().db.selectFrom('member').select('id').where('router_key', '=', name.toLowerCase()).executeTakeFirstOrThrow()).id;
  const credentials = async (name: string) => (await t().db.selectFrom('device_credential').select('id').where('member_id', '=', await memberId(name)).execute()).length;

  beforeAll(async () => {
    await t().app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t().app.server.address() as AddressInfo).port}`;
    a = await newAccount(t());
    sign = (await t().db.selectFrom('account').select('sign').where('id', '=', a.account.id).executeTakeFirstOrThrow()).sign;
    return async () => {
      for (const d of open) d.close();
    };
  });

  it('while off every device passes and is recorded as approved; turned on, those devices still pass and a new router waits', async () => {
    const [known = '', fresh = ''] = await seedFreshMembers(t(), a.account.id, 2);
    const first = await hello(routerHello(known, SEEDED_MEMBER_SECRET, { router_mac: 'AA:BB:CC:00:00:01' }));
    const welcome = await first.next('welcome');
    first.close();
    expect(await listed(known)).toEqual([expect.objectContaining({ state: 'approved', decided_by: '', ip: '127.0.0.1', os: 'linux' })]);

    await setApproval(1);
    // The known router comes back, with its credential and with its secret.
    const again = await hello({ ...routerHello(known, SEEDED_MEMBER_SECRET, { router_mac: 'aa:bb:cc:00:00:01' }), secret: undefined, credential: welcome.credential });
    await again.next('welcome');
    again.close();

    // A router never seen waits: told why, recorded with its address, OS and model, given no credential.
    const before = await credentials(fresh);
    const waiting = await hello(routerHello(fresh, SEEDED_MEMBER_SECRET, { router_model: 'HL-300', sys_brand: 'HubLink' }));
    expect(await waiting.closedWith()).toMatchObject({ code: DEVICE_CLOSE.awaitingApproval });
    expect(waiting.received).toEqual([expect.objectContaining({ type: 'error', code: DEVICE_CLOSE.awaitingApproval, message: expect.stringContaining('retry') })]);
    expect(await credentials(fresh)).toBe(before);
    const [row] = await listed(fresh);
    expect(row).toMatchObject({ state: 'waiting', ip: '127.0.0.1', os: 'linux', model: 'HL-300', brand: 'HubLink' });
    const diagnosis = await t().db.selectFrom('member_diagnosis').selectAll().where('member_id', '=', await memberId(fresh)).executeTakeFirst();
    expect(diagnosis?.fail_code).toBe(DEVICE_CLOSE.awaitingApproval);

    // It retries and still waits (one row); approved, its next retry is welcomed.
    expect((await (await hello(routerHello(fresh, SEEDED_MEMBER_SECRET))).closedWith()).code).toBe(DEVICE_CLOSE.awaitingApproval);
    expect(await listed(fresh)).toHaveLength(1);
    expect((await t().call(approveDevice, { token: a.token, body: { id: row!.id } })).code).toBe(200);
    const admitted = await hello(routerHello(fresh, SEEDED_MEMBER_SECRET));
    await admitted.next('welcome');
    admitted.close();
    expect(await listed(fresh)).toEqual([expect.objectContaining({ state: 'approved', decided_by: a.username })]);
  });

  it('a software member waits on a device it has not used, is refused when the administrator says so, and a refused device that is online is cut off', async () => {
    await setApproval(0);
    const [app = ''] = await seedFreshMembers(t(), a.account.id, 1, { router_type: ROUTER_TYPE.software });
    const login = `${app}@${sign}`;
    const laptop = await hello(appHello(login, 'laptop-1'));
    await laptop.next('welcome');
    await setApproval(1);

    const phone = await hello(appHello(login, 'phone-1', { os: 'android', sys_brand: 'Xiaomi', sys_model: '14' }));
    expect((await phone.closedWith()).code).toBe(DEVICE_CLOSE.awaitingApproval);
    // The waiting device did not replace the laptop's session.
    expect(laptop.closed).toBeUndefined();
    const devices = await listed(app);
    const phoneRow = devices.find((d) => d.state === 'waiting')!;
    expect(phoneRow).toMatchObject({ os: 'android', brand: 'Xiaomi', model: '14' });
    expect((await t().call(refuseDevice, { token: a.token, body: { id: phoneRow.id } })).code).toBe(200);
    const refused = await hello(appHello(login, 'phone-1'));
    expect((await refused.closedWith()).code).toBe(DEVICE_CLOSE.deviceRefused);

    // Refusing the laptop, approved and online, closes its session; it cannot come back.
    const laptopRow = devices.find((d) => d.state === 'approved')!;
    expect((await t().call(refuseDevice, { token: a.token, body: { id: laptopRow.id } })).code).toBe(200);
    expect((await laptop.closedWith()).code).toBe(DEVICE_CLOSE.deviceRefused);
    expect((await (await hello(appHello(login, 'laptop-1'))).closedWith()).code).toBe(DEVICE_CLOSE.deviceRefused);

    // Turned off, new and waiting devices pass; a refusal stays.
    await setApproval(0);
    await (await hello(appHello(login, 'tablet-1'))).next('welcome');
    expect((await (await hello(appHello(login, 'phone-1'))).closedWith()).code).toBe(DEVICE_CLOSE.deviceRefused);
  });

  it('a member that signed in before approval was turned on, with no device recorded, keeps its next device', async () => {
    const [old = '', never = ''] = await seedFreshMembers(t(), a.account.id, 2);
    await t().db.updateTable('member').set({ online_time: Date.now() - 86_400_000 }).where('router_key', '=', old.toLowerCase()).execute();
    await setApproval(0);
    await setApproval(1);
    await (await hello(routerHello(old, SEEDED_MEMBER_SECRET))).next('welcome');
    // Only its first device: a second one waits.
    expect((await (await hello(routerHello(old, SEEDED_MEMBER_SECRET, { device_id: 'second-box' }))).closedWith()).code).toBe(DEVICE_CLOSE.awaitingApproval);
    expect((await (await hello(routerHello(never, SEEDED_MEMBER_SECRET))).closedWith()).code).toBe(DEVICE_CLOSE.awaitingApproval);
  });

  it('deviceApproval() answers for other sign-in paths (stock OpenVPN clients) by the same rules', async () => {
    const [m = ''] = await seedFreshMembers(t(), a.account.id, 1);
    const member = { id: await memberId(m), tenant_id: a.account.id };
    const device = { device_id: 'ovpn:cn-1', ip: '192.0.2.7', os: 'openvpn', model: '', brand: '' };
    await setApproval(1);
    expect(await deviceApproval(t().ctx, member, device)).toBe('waiting');
    expect(await deviceApproval(t().ctx, member, device)).toBe('waiting');
    const [row] = await listed(m);
    expect(row).toMatchObject({ ip: '192.0.2.7', os: 'openvpn', state: 'waiting' });
    await t().call(approveDevice, { token: a.token, body: { id: row!.id } });
    expect(await deviceApproval(t().ctx, member, device)).toBe('approved');
    await t().call(refuseDevice, { token: a.token, body: { id: row!.id } });
    expect(await deviceApproval(t().ctx, member, device)).toBe('refused');
    await setApproval(0);
    expect(await deviceApproval(t().ctx, member, { ...device, device_id: 'ovpn:cn-2' })).toBe('approved');
  });
});
