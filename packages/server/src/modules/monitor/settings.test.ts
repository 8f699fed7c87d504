import { CODE, fmt, M, monitorClose, monitorConfig, monitorEnable, monitorRouters, monitorSetting, ROUTER_TYPE, webhookSetting } from '@hublink/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase, FULL_ROLE, newAccount, ramToken } from '../../../test/helpers';
import { seedFreshMembers, seedMembers } from '../../../test/networks';
import type { RoleAuth } from '../../core/actor';
import { accountWithEmail, expectRefused, monitorOn } from './fixtures';

const role = (monitor: Partial<RoleAuth['monitor']>): RoleAuth => ({ ...FULL_ROLE, monitor: { view: 1, create: 0, edit: 0, delete: 0, ...monitor } });

// The kinds of alert with one on: a setting keeps at least one (spec 3 §8).
const ONE_KIND = { router_online: 0, router_offline: 0, service_expired: 1, pop_connect: 0 } as const;

describeEachDatabase('monitoring configuration (/monitor/*)', (t) => {
  let a: Awaited<ReturnType<typeof accountWithEmail>>;
  let hardware: string[];
  let software: string[];

  beforeAll(async () => {
    a = await accountWithEmail(t());
    hardware = await seedFreshMembers(t(), a.account.id, 3);
    software = await seedFreshMembers(t(), a.account.id, 1, { router_type: ROUTER_TYPE.software });
    await t().db.updateTable('member').set({ note: '机房A' }).where('router_key', '=', hardware[0]!.toLowerCase()).execute();
  });

  const refused = expectRefused;

  it('answers the defaults before monitoring was ever on', async () => {
    const res = await t().call(monitorConfig, { token: a.token });
    expect(res).toMatchObject({ code: 200 });
    expect(res.data).toEqual({ enable: 0, portal_confirm: 1, email_confirm: 0, webhook_confirm: 0, router_online: 1, router_offline: 1, service_expired: 1, pop_connect: 0, router: [] });
  });

  it('lists the hardware members as the devices to monitor, with their notes', async () => {
    const res = await t().call(monitorRouters, { token: a.token });
    expect(res.code).toBe(200);
    const names = res.data!.map((r) => r.router_name);
    expect(names).toEqual(expect.arrayContaining(hardware));
    expect(names).not.toContain(software[0]);
    expect(res.data!.find((r) => r.router_name === hardware[0])).toEqual({ router_name: hardware[0], note: '机房A' });
  });

  it('refuses a setting while monitoring is off', async () => {
    await refused(t(), () => t().call(monitorSetting, { token: a.token, body: { ...ONE_KIND, router: [hardware[0]] } }), CODE.invalid, M.monitorNotEnabled);
  });

  it('switches monitoring on, once or twice', async () => {
    expect(await t().call(monitorEnable, { token: a.token })).toMatchObject({ code: 200, msg: M.monitorStarted });
    expect(await t().call(monitorEnable, { token: a.token })).toMatchObject({ code: 200, msg: M.monitorStarted });
    expect((await t().call(monitorConfig, { token: a.token })).data!.enable).toBe(1);
  });

  it('saves the switches and the devices; the portal message stays on whatever is sent', async () => {
    const body = { portal_confirm: 0, email_confirm: 1, webhook_confirm: 0, router_online: 1, router_offline: 1, service_expired: 0, pop_connect: 1, router: [hardware[0]!.toUpperCase(), hardware[1]!, hardware[1]!] };
    expect(await t().call(monitorSetting, { token: a.token, body })).toMatchObject({ code: 200, msg: M.saved });
    const cfg = (await t().call(monitorConfig, { token: a.token })).data!;
    expect(cfg).toMatchObject({ enable: 1, portal_confirm: 1, email_confirm: 1, webhook_confirm: 0, router_online: 1, router_offline: 1, service_expired: 0, pop_connect: 1 });
    expect(cfg.router.toSorted((x, y) => x.router_name.localeCompare(y.router_name))).toEqual(
      [
        { router_name: hardware[0], note: '机房A' },
        { router_name: hardware[1], note: '' },
      ].toSorted((x, y) => x.router_name!.localeCompare(y.router_name!)),
    );
    // A new setting replaces the devices.
    expect((await t().call(monitorSetting, { token: a.token, body: { ...body, router: [hardware[2]] } })).code).toBe(200);
    expect((await t().call(monitorConfig, { token: a.token })).data!.router).toEqual([{ router_name: hardware[2], note: '' }]);
  });

  it('refuses a device that is not a hardware member of the tenant, naming it', async () => {
    const b = await newAccount(t());
    const [foreign] = await seedFreshMembers(t(), b.account.id, 1);
    for (const name of ['nosuchrouter', software[0]!, foreign!]) {
      await refused(t(), () => t().call(monitorSetting, { token: a.token, body: { ...ONE_KIND, router: [hardware[0], name] } }), CODE.invalid, fmt(M.monitorRouterUnknown, { name }));
    }
  });

  it('refuses email notifications for an account without an email, and webhook ones without a webhook', async () => {
    const phoneOnly = await newAccount(t());
    await monitorOn(t(), phoneOnly.token);
    await refused(t(), () => t().call(monitorSetting, { token: phoneOnly.token, body: { ...ONE_KIND, email_confirm: 1 } }), CODE.invalid, M.monitorBindEmailFirst);
    await refused(t(), () => t().call(monitorSetting, { token: a.token, body: { ...ONE_KIND, webhook_confirm: 1 } }), CODE.invalid, M.monitorWebhookFirst);
    expect((await t().call(webhookSetting, { token: a.token, body: { type: 'wecom', url: 'https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=k' } })).code).toBe(200);
    expect(await t().call(monitorSetting, { token: a.token, body: { ...ONE_KIND, webhook_confirm: 1 } })).toMatchObject({ code: 200 });
  });

  it.each([
    ['a flag of 2', { router_online: 2 }, M.validationFailed],
    ['a flag as text', { email_confirm: '1' }, M.validationFailed],
    ['devices not a list', { router: 'h1' }, M.validationFailed],
    ['a device name of control characters', { router: ['a\u0000b'] }, M.textInvalidChars],
    ['a device name too long', { router: ['x'.repeat(65)] }, M.validationFailed],
    ['too many devices', { router: Array.from({ length: 5001 }, (_, i) => `r${i}`) }, fmt(M.monitorRoutersTooMany, { n: 5000 })],
    // Spec 3 §8: the kinds are a checkbox group that keeps at least one ticked ('select at least one').
    ['every kind of alert off', { service_expired: 0 }, '请至少选择一项'],
    ['no kind of alert given', { service_expired: undefined }, '请至少选择一项'],
  ])('refuses %s', async (_name, body, msg) => {
    await refused(t(), () => t().call(monitorSetting, { token: a.token, body: { ...ONE_KIND, ...body } }), CODE.invalid, msg);
  });

  it('closes monitoring and keeps the configuration for the next time', async () => {
    const before = (await t().call(monitorConfig, { token: a.token })).data!;
    expect(await t().call(monitorClose, { token: a.token })).toMatchObject({ code: 200, msg: M.monitorClosed });
    const after = (await t().call(monitorConfig, { token: a.token })).data!;
    expect(after).toEqual({ ...before, enable: 0 });
    await t().call(monitorEnable, { token: a.token });
    expect((await t().call(monitorConfig, { token: a.token })).data).toEqual(before);
  });

  it("keeps tenants apart: another tenant's configuration and devices stay its own", async () => {
    const b = await newAccount(t());
    const [own] = await seedFreshMembers(t(), b.account.id, 1);
    const bRouters = (await t().call(monitorRouters, { token: b.token })).data!.map((r) => r.router_name);
    expect(bRouters).toEqual([own]);
    expect((await t().call(monitorConfig, { token: b.token })).data).toMatchObject({ enable: 0, router: [] });
    await monitorOn(t(), b.token, { router: [own!] });
    expect((await t().call(monitorConfig, { token: a.token })).data!.router.map((r) => r.router_name)).not.toContain(own);
  });

  describe('roles: view reads, create enables, edit sets, delete disables', () => {
    it('a role with view only reads the configuration and the devices, and changes nothing', async () => {
      const token = await ramToken(t(), a.account.id, role({}));
      expect((await t().call(monitorConfig, { token })).code).toBe(200);
      expect((await t().call(monitorRouters, { token })).code).toBe(200);
      for (const call of [
        () => t().call(monitorEnable, { token }),
        () => t().call(monitorSetting, { token, body: ONE_KIND }),
        () => t().call(monitorClose, { token }),
      ]) {
        await refused(t(), call, CODE.forbidden, M.deniedPermission);
      }
    });

    it('create enables, edit saves settings, delete disables; each only that', async () => {
      const c = await newAccount(t());
      await seedMembers(t(), c.account.id, [`mrole${Date.now() % 100000}`]);
      const creator = await ramToken(t(), c.account.id, role({ create: 1 }));
      const editor = await ramToken(t(), c.account.id, role({ edit: 1 }));
      const closer = await ramToken(t(), c.account.id, role({ delete: 1 }));
      await refused(t(), () => t().call(monitorClose, { token: creator }), CODE.forbidden, M.deniedPermission);
      await refused(t(), () => t().call(monitorSetting, { token: creator, body: ONE_KIND }), CODE.forbidden, M.deniedPermission);
      await refused(t(), () => t().call(monitorEnable, { token: editor }), CODE.forbidden, M.deniedPermission);
      await refused(t(), () => t().call(monitorEnable, { token: closer }), CODE.forbidden, M.deniedPermission);
      expect((await t().call(monitorEnable, { token: creator })).code).toBe(200);
      await refused(t(), () => t().call(monitorSetting, { token: closer, body: ONE_KIND }), CODE.forbidden, M.deniedPermission);
      expect((await t().call(monitorSetting, { token: editor, body: ONE_KIND })).code).toBe(200);
      await refused(t(), () => t().call(monitorClose, { token: editor }), CODE.forbidden, M.deniedPermission);
      expect((await t().call(monitorClose, { token: closer })).code).toBe(200);
    });
  });
});
