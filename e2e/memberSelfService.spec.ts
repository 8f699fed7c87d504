import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fmt, type Envelope, SM, CM } from '@hublink/contract';
import { addRouters, CONTEXT, launch, postAs, screenshotAtWidths, signedInTenant, startServer, WAIT_MS, type Server } from './support';

/** A member's self-service page in Chromium (issue 30): the member signs in with its own login, downloads its profile and gets a QR code for its phone. */
describe("a member's self-service page in Chromium", () => {
  let server: Server;
  let browser: Browser;
  let member: Page;
  let sign = '';
  let networkNumber = '';
  const staff = `self${Date.now() % 100_000}`;
  const phone = `137${String(Date.now()).slice(-8)}`;
  const password = 'Staff-pass1';

  beforeAll(async () => {
    server = await startServer();
    browser = await launch();
    const { page: admin, tenantId } = await signedInTenant(server, browser, { username: `selfadm${Date.now() % 1_000_000}`, password: 'secret123', phone: `136${String(Date.now()).slice(-8)}`, nickname: '自助测试' });
    await addRouters(server, admin, ['hq_center1']);
    await postAs(server, admin, '/router/add', { router_type: 2, username: staff, password, note: '销售部' });
    networkNumber = (await postAs<{ network_number: string }>(server, admin, '/network/create', { network_name: '总部网络', center: ['hq_center1'], point: [staff] })).data!.network_number;
    // The phone the member bound (the binding flow is the member dialog's, tested there).
    await server.ctx.db.updateTable('member').set({ phone, area_number: '86' }).where('tenant_id', '=', tenantId).where('router_key', '=', staff).execute();
    sign = (await server.ctx.db.selectFrom('account').select('sign').where('id', '=', tenantId).executeTakeFirstOrThrow()).sign;
    await admin.context().close();
    // The member's own browser: no console account signed in.
    member = await (await browser.newContext({ ...CONTEXT, reducedMotion: 'reduce', acceptDownloads: true })).newPage();
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function signInAs(login: string, secret: string) {
    await member.getByLabel(SM.selfLoginLabel).fill(login);
    await member.getByLabel(CM.connectPassword).fill(secret);
    await member.getByRole('button', { name: SM.selfSignIn }).click();
  }

  it('opens without a console account and refuses a wrong password on the form', async () => {
    await member.goto(`${server.url}/self`);
    await member.getByText(SM.selfIntro).waitFor();
    await screenshotAtWidths(member, 'self-service-sign-in', member.getByLabel(SM.selfLoginLabel));
    await signInAs(`${staff}@${sign}`, 'wrong-pass1');
    await member.getByText(CM.clientWrongPassword).first().waitFor();
  });

  it('signs in by name@sign: its network, a profile with its own certificate', async () => {
    await signInAs(`${staff}@${sign}`, password);
    const card = member.getByRole('region', { name: '总部网络' });
    await card.waitFor();
    await member.getByText(`${staff}@${sign}`, { exact: true }).waitFor();
    const downloaded = member.waitForEvent('download', { timeout: WAIT_MS });
    await card.getByRole('button', { name: CM.profileDownload }).click();
    const file = await downloaded;
    expect(file.suggestedFilename()).toBe(`${staff}-${networkNumber}.ovpn`);
    const text = await readFile((await file.path())!, 'utf8');
    for (const tag of ['<ca>', '<cert>', '<key>', '<tls-crypt>', 'auth-user-pass']) expect(text).toContain(tag);
  });

  it('shows a QR code and a single-use link a phone imports', async () => {
    const card = member.getByRole('region', { name: '总部网络' });
    await card.getByRole('button', { name: SM.selfQrNew }).click();
    const qr = card.getByRole('group', { name: fmt(SM.selfQrFor, { name: '总部网络' }) });
    await qr.locator('.ant-qrcode canvas').waitFor();
    const url = await qr.getByRole('textbox').inputValue();
    expect(url).toMatch(new RegExp(`^${server.url}/api/v1/self/download\\?token=`));
    expect(await qr.getByRole('link', { name: SM.selfImportInApp }).getAttribute('href')).toBe(`openvpn://import-profile/${url}`);
    await screenshotAtWidths(member, 'self-service-profile', qr.locator('.ant-qrcode canvas'));
    // What the phone gets: the profile once; the link then is spent.
    const first = await fetch(url);
    expect(first.headers.get('content-type')).toContain('application/x-openvpn-profile');
    expect(await first.text()).toContain('<cert>');
    const again = (await (await fetch(url)).json()) as Envelope;
    expect(again.msg).toBe(SM.selfLinkInvalid);
  });

  it('signs out, and signs in again with the bound phone', async () => {
    await member.getByRole('button', { name: SM.selfSignOut }).click();
    await member.getByLabel(SM.selfLoginLabel).waitFor();
    await signInAs(`+86 ${phone}`, password);
    await member.getByRole('region', { name: '总部网络' }).waitFor();
    await member.getByText(SM.selfHowTo).waitFor();
  });
});
