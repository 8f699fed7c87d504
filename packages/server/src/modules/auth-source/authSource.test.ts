import {
  AUTH_SOURCE_STATUS,
  authSourceCode,
  authSourceInfo,
  CODE,
  createAuthSource,
  deleteAuthSource,
  disableAuthSource,
  editAuthSource,
  enableAuthSource,
  fmt,
  LIMITS,
  listAuthSources,
  M,
  maskSecret,
  ROUTER_TYPE,
  type Endpoint,
} from '@hublink/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase, newAccount, ramToken, type TestApp } from '../../../test/helpers';
import { seedMembers } from '../../../test/networks';
import { createSourceAs, grantFeature } from './fixtures';

type Main = Awaited<ReturnType<typeof newAccount>>;

const WECHAT = { type: 'wechat', name: '总部企业微信', app_id: 'ww0123456789abcdef', app_secret: 'wecom-secret-0001', agent_id: '1000002' } as const;
const FEISHU = { type: 'feishu', name: '飞书', app_id: 'cli_a1b2c3d4e5', app_secret: 'feishu-secret-0002' } as const;
const DINGTALK = { type: 'dingtalk', name: '钉钉', app_id: 'dingappkey0003', app_secret: 'dingtalk-secret-0003', corp_id: 'ding0corp0003' } as const;

let seq = 0;
/** A source body with a name no other test uses. */
const fresh = <T extends { name: string }>(body: T): T => ({ ...body, name: `${body.name}${++seq}` });

const createSource = (t: TestApp, main: Main, body: object) => createSourceAs(t, main.token, body);

/** The rows of the sign-in source tables, besides what snapshot() holds. */
const sourceTables = async (t: TestApp) => ({
  ...(await t.snapshot()),
  auth_source_code: await t.db.selectFrom('auth_source_code').selectAll().orderBy('tenant_id').execute(),
});

describeEachDatabase(
  'sign-in sources: the console calls',
  (t) => {
    let a: Main;
    let b: Main;
    let none: Main;
    let ram: string;

    beforeAll(async () => {
      [a, b, none] = [await newAccount(t()), await newAccount(t()), await newAccount(t())];
      await grantFeature(t(), a.account.id);
      await grantFeature(t(), b.account.id);
      ram = await ramToken(t(), a.account.id);
    });

    describe('the feature flag', () => {
      const calls: [Endpoint, object][] = [
        [authSourceCode, {}],
        [listAuthSources, {}],
        [authSourceInfo, { id: 1 }],
        [createAuthSource, fresh(FEISHU)],
        [editAuthSource, { id: 1, ...FEISHU }],
        [enableAuthSource, { id: 1 }],
        [disableAuthSource, { id: 1 }],
        [deleteAuthSource, { id: 1 }],
      ];

      it('refuses every call of a tenant without software_auth_source = 1, changing nothing', async () => {
        const before = await sourceTables(t());
        for (const [e, input] of calls) {
          const res = await t().call(e, { token: none.token, ...(e.method === 'GET' ? { query: input as Record<string, unknown> } : { body: input }) });
          expect({ path: e.path, code: res.code, msg: res.msg }).toEqual({ path: e.path, code: CODE.forbidden, msg: M.authSourceNotEnabled });
        }
        expect(await sourceTables(t())).toEqual(before);
      });
    });

    describe('GET /auth_source/code', () => {
      it('gives the tenant one ID code, created on first use, unique across tenants, with the types and their defaults', async () => {
        const first = await t().call(authSourceCode, { token: a.token });
        expect(first.code).toBe(200);
        expect(first.data!.code).toMatch(new RegExp(`^[A-HJ-NP-Z2-9]{${LIMITS.authSourceCodeLength}}$`));
        expect((await t().call(authSourceCode, { token: a.token })).data!.code).toBe(first.data!.code);
        expect((await t().call(authSourceCode, { token: b.token })).data!.code).not.toBe(first.data!.code);
        expect(first.data!.config.type).toEqual([
          { value: 'wechat', label: M.authSourceTypeWechat },
          { value: 'feishu', label: M.authSourceTypeFeishu },
          { value: 'dingtalk', label: M.authSourceTypeDingtalk },
        ]);
        // HUBLINK_PUBLIC_URL and HUBLINK_EGRESS_IPS of this suite's configuration.
        expect(first.data!.config.default).toEqual({
          wechat: { white_ip: '203.0.113.7;203.0.113.8', auth_domain: 'console.example.com' },
          feishu: { white_ip: '203.0.113.7,203.0.113.8', auth_domain: 'https://console.example.com/api/v1/auth_source/callback' },
          dingtalk: { white_ip: '203.0.113.7,203.0.113.8', auth_domain: 'https://console.example.com/api/v1/auth_source/callback' },
        });
      });

      it('lets a sub-account read it', async () => {
        expect((await t().call(authSourceCode, { token: ram })).code).toBe(200);
      });
    });

    describe('POST /auth_source/create', () => {
      it('creates each type enabled, keeping the field of its type only, the secret sealed', async () => {
        for (const body of [WECHAT, FEISHU, DINGTALK]) {
          const named = fresh({ ...body, agent_id: '1000009', corp_id: 'dingleftover' });
          const res = await t().call(createAuthSource, { token: a.token, body: named });
          expect(res).toMatchObject({ code: 200, msg: M.saved });
          const row = await t().db.selectFrom('auth_source').selectAll().where('id', '=', res.data!.id).executeTakeFirstOrThrow();
          expect(row).toMatchObject({
            tenant_id: a.account.id,
            type: body.type,
            name: named.name,
            app_id: body.app_id,
            status: AUTH_SOURCE_STATUS.enabled,
            agent_id: body.type === 'wechat' ? '1000009' : '',
            corp_id: body.type === 'dingtalk' ? 'dingleftover' : '',
          });
          expect(row.app_secret).not.toContain(body.app_secret);
          expect(t().ctx.secretBox.openText(row.app_secret, `auth_source:${a.account.id}`)).toBe(body.app_secret);
        }
      });

      it('refuses each rule of spec 3 §5 with its message, changing nothing', async () => {
        const [feishu, wechat, dingtalk] = [fresh(FEISHU), fresh(WECHAT), fresh(DINGTALK)];
        const cases: [object, string][] = [
          [{ ...feishu, type: undefined }, M.authSourceTypeRequired],
          [{ ...feishu, type: 'qq' }, M.authSourceTypeRequired],
          [{ ...feishu, name: '  ' }, M.authSourceNameRequired],
          [{ ...feishu, name: 'x'.repeat(LIMITS.authSourceNameMax + 1) }, fmt(M.authSourceNameTooLong, { n: LIMITS.authSourceNameMax })],
          [{ ...feishu, app_id: '' }, M.authSourceAppIdRequired],
          [{ ...feishu, app_id: 'cli 123' }, fmt(M.authSourceAppIdInvalid, { n: LIMITS.authSourceAppIdMax })],
          [{ ...feishu, app_secret: undefined }, M.authSourceAppSecretRequired],
          [{ ...feishu, app_secret: '密钥' }, fmt(M.authSourceAppSecretInvalid, { n: LIMITS.authSourceAppSecretMax })],
          [{ ...wechat, agent_id: undefined }, M.authSourceAgentIdRequired],
          [{ ...wechat, agent_id: '' }, M.authSourceAgentIdRequired],
          [{ ...wechat, agent_id: 'abc' }, fmt(M.authSourceAgentIdInvalid, { n: LIMITS.authSourceAgentIdMax })],
          [{ ...dingtalk, corp_id: undefined }, M.authSourceCorpIdRequired],
          [{ ...dingtalk, corp_id: 'ding corp' }, fmt(M.authSourceCorpIdInvalid, { n: LIMITS.authSourceCorpIdMax })],
        ];
        const before = await sourceTables(t());
        for (const [body, msg] of cases) {
          const res = await t().call(createAuthSource, { token: a.token, body });
          expect({ body, code: res.code, msg: res.msg }).toEqual({ body, code: CODE.invalid, msg });
        }
        expect(await sourceTables(t())).toEqual(before);
      });

      it('refuses a name the tenant already uses (any case), but not one another tenant uses', async () => {
        const body = fresh(FEISHU);
        await createSource(t(), a, body);
        const before = await sourceTables(t());
        expect(await t().call(createAuthSource, { token: a.token, body: { ...body, name: body.name.toUpperCase() } })).toMatchObject({ code: CODE.invalid, msg: M.authSourceNameTaken });
        expect(await sourceTables(t())).toEqual(before);
        expect((await t().call(createAuthSource, { token: b.token, body })).code).toBe(200);
      });

      it(`refuses a tenant's source number ${LIMITS.authSourcesMax + 1}`, async () => {
        const c = await newAccount(t());
        await grantFeature(t(), c.account.id);
        for (let i = 1; i < LIMITS.authSourcesMax; i++) await createSource(t(), c, fresh(FEISHU));
        expect((await t().call(createAuthSource, { token: c.token, body: fresh(FEISHU) })).code).toBe(200);
        const before = await sourceTables(t());
        expect(await t().call(createAuthSource, { token: c.token, body: fresh(FEISHU) })).toMatchObject({
          code: CODE.invalid,
          msg: fmt(M.authSourceTooMany, { n: LIMITS.authSourcesMax }),
        });
        expect(await sourceTables(t())).toEqual(before);
      });
    });

    describe('GET /auth_source/lists and /auth_source/info', () => {
      let listOwner: Main;
      const ids: number[] = [];
      beforeAll(async () => {
        listOwner = await newAccount(t());
        await grantFeature(t(), listOwner.account.id);
        for (let i = 0; i < 12; i++) ids.push(await createSource(t(), listOwner, { ...FEISHU, name: `列表${i}`, app_id: `cli_list${i}` }));
      });

      it('pages the tenant’s sources newest first, without secrets, and searches name or app id', async () => {
        const page1 = await t().call(listAuthSources, { token: listOwner.token, query: { page: 1 } });
        expect(page1.count).toBe(12);
        expect(page1.data!.map((r) => r.id)).toEqual(ids.slice(2).reverse());
        expect(page1.data![0]).toEqual({
          id: ids[11],
          type: 'feishu',
          name: '列表11',
          app_id: 'cli_list11',
          agent_id: '',
          corp_id: '',
          status: 1,
          create_time: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
        });
        expect(JSON.stringify(page1)).not.toContain(FEISHU.app_secret);
        expect((await t().call(listAuthSources, { token: listOwner.token, query: { page: 2 } })).data!.map((r) => r.id)).toEqual(ids.slice(0, 2).reverse());
        expect((await t().call(listAuthSources, { token: listOwner.token, query: { search: '列表1' } })).count).toBe(3);
        expect((await t().call(listAuthSources, { token: listOwner.token, query: { search: 'CLI_LIST7' } })).data!.map((r) => r.name)).toEqual(['列表7']);
        // Another tenant's list is its own.
        expect((await t().call(listAuthSources, { token: b.token, query: { search: '列表' } })).count).toBe(0);
      });

      it('gives one source with its secret masked; 204 for another tenant’s or a missing id', async () => {
        const info = await t().call(authSourceInfo, { token: listOwner.token, query: { id: ids[0] } });
        expect(info.data).toMatchObject({ id: ids[0], name: '列表0', app_secret: maskSecret(FEISHU.app_secret) });
        expect(info.data!.app_secret).not.toContain(FEISHU.app_secret);
        // Not even its end (issue 32).
        expect(info.data!.app_secret).toBe('************');
        for (const token of [b.token, a.token]) {
          expect(await t().call(authSourceInfo, { token, query: { id: ids[0] } })).toMatchObject({ code: CODE.notFound, msg: M.authSourceNotFound });
        }
        expect((await t().call(authSourceInfo, { token: listOwner.token, query: { id: 99_999_999 } })).code).toBe(CODE.notFound);
      });

      it('lets a sub-account read the list and a source', async () => {
        const id = await createSource(t(), a, fresh(WECHAT));
        expect((await t().call(listAuthSources, { token: ram })).code).toBe(200);
        expect((await t().call(authSourceInfo, { token: ram, query: { id } })).data!.agent_id).toBe(WECHAT.agent_id);
      });
    });

    describe('POST /auth_source/edit', () => {
      it('changes the settings; the mask keeps the secret, a new secret replaces it', async () => {
        const id = await createSource(t(), a, fresh(WECHAT));
        const sealed = async () => (await t().db.selectFrom('auth_source').select('app_secret').where('id', '=', id).executeTakeFirstOrThrow()).app_secret;
        const first = await sealed();
        const mask = (await t().call(authSourceInfo, { token: a.token, query: { id } })).data!.app_secret;
        const edited = { id, ...WECHAT, name: `改名${++seq}`, app_id: 'ww9999', agent_id: '1000010', app_secret: mask };
        expect(await t().call(editAuthSource, { token: a.token, body: edited })).toMatchObject({ code: 200, msg: M.saved });
        expect(await sealed()).toBe(first);
        expect((await t().call(authSourceInfo, { token: a.token, query: { id } })).data).toMatchObject({ name: edited.name, app_id: 'ww9999', agent_id: '1000010' });
        expect((await t().call(editAuthSource, { token: a.token, body: { ...edited, app_secret: 'a-new-secret' } })).code).toBe(200);
        expect(t().ctx.secretBox.openText(await sealed(), `auth_source:${a.account.id}`)).toBe('a-new-secret');
      });

      it('refuses another type, a taken name and a broken rule, changing nothing', async () => {
        const id = await createSource(t(), a, fresh(DINGTALK));
        const other = fresh(DINGTALK);
        await createSource(t(), a, other);
        const body = { id, ...DINGTALK, name: `钉钉改${++seq}` };
        const before = await sourceTables(t());
        expect(await t().call(editAuthSource, { token: a.token, body: { ...body, type: 'feishu' } })).toMatchObject({ code: CODE.invalid, msg: M.authSourceTypeFixed });
        expect(await t().call(editAuthSource, { token: a.token, body: { ...body, name: other.name } })).toMatchObject({ code: CODE.invalid, msg: M.authSourceNameTaken });
        expect(await t().call(editAuthSource, { token: a.token, body: { ...body, corp_id: '' } })).toMatchObject({ code: CODE.invalid, msg: M.authSourceCorpIdRequired });
        expect(await sourceTables(t())).toEqual(before);
        // Keeping its own name is no clash.
        expect((await t().call(editAuthSource, { token: a.token, body: { ...body, name: other.name.toUpperCase(), id: (await t().db.selectFrom('auth_source').select('id').where('name', '=', other.name).executeTakeFirstOrThrow()).id } })).code).toBe(200);
      });
    });

    describe('enable, disable, delete', () => {
      /** A member the source created, bound as its sign-in would bind it. */
      async function boundMember(sourceId: number, name: string): Promise<number> {
        const [id] = await seedMembers(t(), a.account.id, [name], { router_type: ROUTER_TYPE.software });
        await t().db.insertInto('auth_source_member').values({ tenant_id: a.account.id, source_id: sourceId, member_id: id!, external_key: `corp/${name}`, create_time: Date.now() }).execute();
        return id!;
      }
      const events = async (type: string, memberId: number) =>
        (await t().db.selectFrom('event').select('payload').where('type', '=', type).execute()).map((r) => JSON.parse(r.payload) as { member_id: number; fields?: string[] }).filter((e) => e.member_id === memberId);

      it('disables (its members lose their credentials), enables again, and either twice is no change', async () => {
        const id = await createSource(t(), a, fresh(FEISHU));
        const member = await boundMember(id, `fsm${++seq}`);
        expect(await t().call(disableAuthSource, { token: a.token, body: { id } })).toMatchObject({ code: 200, msg: M.authSourceDisabledDone });
        expect((await t().call(authSourceInfo, { token: a.token, query: { id } })).data!.status).toBe(AUTH_SOURCE_STATUS.disabled);
        expect(await events('member.changed', member)).toEqual([expect.objectContaining({ fields: ['credentials'] })]);
        expect((await t().call(disableAuthSource, { token: a.token, body: { id } })).code).toBe(200);
        expect(await events('member.changed', member)).toHaveLength(1);
        expect(await t().call(enableAuthSource, { token: a.token, body: { id } })).toMatchObject({ code: 200, msg: M.authSourceEnabled });
        expect((await t().call(enableAuthSource, { token: a.token, body: { id } })).code).toBe(200);
        expect((await t().call(authSourceInfo, { token: a.token, query: { id } })).data!.status).toBe(AUTH_SOURCE_STATUS.enabled);
        expect(await events('member.changed', member)).toHaveLength(1);
      });

      it('deletes a source with the members it created, and nothing else', async () => {
        const id = await createSource(t(), a, fresh(WECHAT));
        const created = await boundMember(id, `wxm${++seq}`);
        const [other] = await seedMembers(t(), a.account.id, [`plain${++seq}`], { router_type: ROUTER_TYPE.software });
        expect(await t().call(deleteAuthSource, { token: a.token, body: { id } })).toMatchObject({ code: 200, msg: M.deleted });
        expect(await t().db.selectFrom('auth_source').select('id').where('id', '=', id).execute()).toEqual([]);
        expect(await t().db.selectFrom('member').select('id').where('id', 'in', [created, other!]).execute()).toEqual([{ id: other }]);
        expect(await events('member.deleted', created)).toHaveLength(1);
        expect(await t().call(deleteAuthSource, { token: a.token, body: { id } })).toMatchObject({ code: CODE.notFound, msg: M.authSourceNotFound });
      });
    });

    describe('who may change a source', () => {
      it('refuses a sub-account every change (403), changing nothing', async () => {
        const id = await createSource(t(), a, fresh(FEISHU));
        const before = await sourceTables(t());
        for (const [e, body] of [
          [createAuthSource, fresh(FEISHU)],
          [editAuthSource, { id, ...fresh(FEISHU) }],
          [enableAuthSource, { id }],
          [disableAuthSource, { id }],
          [deleteAuthSource, { id }],
        ] as const) {
          expect(await t().call(e, { token: ram, body })).toMatchObject({ code: CODE.forbidden, msg: M.deniedMainOnly });
        }
        expect(await sourceTables(t())).toEqual(before);
      });

      it("answers 204 to another tenant naming a source, leaving it as it was", async () => {
        const id = await createSource(t(), a, fresh(DINGTALK));
        const before = await sourceTables(t());
        for (const [e, body] of [
          [editAuthSource, { id, ...fresh(DINGTALK) }],
          [enableAuthSource, { id }],
          [disableAuthSource, { id }],
          [deleteAuthSource, { id }],
        ] as const) {
          expect(await t().call(e, { token: b.token, body })).toMatchObject({ code: CODE.notFound, msg: M.authSourceNotFound });
        }
        expect(await sourceTables(t())).toEqual(before);
      });
    });
  },
  { config: { publicUrl: 'https://console.example.com', egressIps: ['203.0.113.7', '203.0.113.8'] } },
);
