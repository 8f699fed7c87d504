import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeviceClient, SimulatedDevice, signInWithSource } from '@hublink/agent';
import { authSourceCode, createAuthSource, M } from '@hublink/contract';
import { createTestApp, DATABASES, newAccount, type TestApp } from '../../test/helpers';
import { browse, startProviders, type LocalProviders } from '../../test/providers';
import { until } from '../../test/until';

/*
 * The reference agent's sign-in through a sign-in source (`hublink agent --auth-source`): it listens on a
 * loopback port, "the browser" (the test, following redirects) goes through the server and the local
 * Feishu, and the agent redeems the ticket and signs in to the gateway with the credential.
 */

let providers: LocalProviders;
beforeAll(async () => {
  providers = await startProviders();
});
afterAll(async () => {
  await providers?.close();
});

for (const dialect of DATABASES) {
  describe(`the agent signs in through a source [${dialect}]`, () => {
    let t: TestApp;
    let base: string;
    let idCode: string;
    const clients: DeviceClient[] = [];

    beforeAll(async () => {
      t = await createTestApp(dialect, { config: { authProviders: providers.urls } });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
      const a = await newAccount(t);
      await t.db.updateTable('account').set({ software_auth_source: 1 }).where('id', '=', a.account.id).execute();
      idCode = (await t.call(authSourceCode, { token: a.token })).data!.code;
      const appId = `cli_agent_${dialect}`;
      providers.feishu.apps.push({ appId, secret: 'agent-secret', redirectUrls: [`${base}/api/v1/auth_source/callback`] });
      expect((await t.call(createAuthSource, { token: a.token, body: { type: 'feishu', name: '飞书', app_id: appId, app_secret: 'agent-secret' } })).code).toBe(200);
    });

    afterAll(async () => {
      for (const c of clients) await c.stop();
      await t?.close();
    });

    /** The user's browser: opens the URL the agent shows and follows every redirect, back to the agent's port. */
    const browser = (url: string) => void browse(url, 'never');

    it('gets a login and a credential the gateway welcomes', async () => {
      providers.feishu.signIn({ tenantKey: 'tk-agent', unionId: 'on_agent', openId: 'ou_agent', userId: 'agentuser', name: '代理' });
      const { login, credential } = await signInWithSource({ api: base, code: idCode.toLowerCase(), source: '飞书', open: browser });
      expect(login).toMatch(/^agentuser@/);
      const client = new DeviceClient({ url: base, identity: { kind: 'app', login }, credential, device: new SimulatedDevice({ kind: 'app', name: login }), log: () => {} });
      clients.push(client);
      client.start();
      await until(() => client.state === 'connected', 'the agent welcomed by the gateway');
    });

    it("rejects with the reason when the provider's sign-in is refused, and with the server's for a wrong code", async () => {
      providers.feishu.signIn({ tenantKey: 'tk-agent', unionId: 'on_agent', openId: 'ou_agent', userId: 'agentuser', name: '代理' });
      await t.db.updateTable('member').set({ status: 0 }).where('router_key', '=', 'agentuser').execute();
      await expect(signInWithSource({ api: base, code: idCode, open: browser })).rejects.toThrow(M.authSourceMemberDisabled);
      await expect(signInWithSource({ api: base, code: 'ZZZZZZZZ', open: browser })).rejects.toThrow(M.authSourceCodeUnknown);
      await expect(signInWithSource({ api: base, code: idCode, source: '钉钉', open: browser })).rejects.toThrow('no enabled source');
    });
  });
}
