import { CODE, contactInfo, createContact, deleteContact, editContact, fmt, LIMITS, listContacts, M, sendContactValidation, validateEmail } from '@hublink/contract';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, FULL_ROLE, newAccount, ramToken, type TestApp } from '../../../test/helpers';
import { expectRefused, freshEmail, monitorSnapshot } from './fixtures';

type Account = Awaited<ReturnType<typeof newAccount>>;

async function addContact(t: TestApp, token: string, name = '值班', email = freshEmail()) {
  const res = await t.call(createContact, { token, body: { name, email } });
  expect(res).toMatchObject({ code: 200, msg: M.saved });
  return { uuid: res.data!.uuid, email };
}

/** The validation link mailed to an address last: its token. */
const lastLink = async (t: TestApp, email: string) =>
  (await t.db.selectFrom('outbox').select(['code', 'body']).where('recipient', '=', email.toLowerCase()).orderBy('id', 'desc').executeTakeFirstOrThrow());

/** Lets the resend cooldown of a contact pass. */
const cooldownOver = (t: TestApp, uuid: string) =>
  t.db.updateTable('monitor_contact').set({ verify_sent_at: Date.now() - LIMITS.contactEmailCooldownSeconds * 1000 }).where('uuid', '=', uuid).execute();

describeEachDatabase('monitoring contacts (/contacts/*)', (t) => {
  let a: Account;
  const refused = (call: () => Promise<{ code: number; msg: string }>, code: number, msg: string) => expectRefused(t(), call, code, msg);

  beforeAll(async () => {
    a = await newAccount(t());
  });

  it('creates, lists (10 a page, oldest first), reads, edits and deletes contacts', async () => {
    const owner = await newAccount(t());
    const made = [];
    for (let i = 0; i < 12; i++) made.push(await addContact(t(), owner.token, `联系人${i}`));
    const page1 = await t().call(listContacts, { token: owner.token, query: { page: 1 } });
    expect(page1).toMatchObject({ code: 200, count: 12 });
    expect(page1.data).toHaveLength(10);
    expect(page1.data![0]).toEqual({ uuid: made[0]!.uuid, name: '联系人0', email: made[0]!.email, email_verify: 0 });
    expect((await t().call(listContacts, { token: owner.token, query: { page: 2 } })).data!.map((c) => c.uuid)).toEqual([made[10]!.uuid, made[11]!.uuid]);
    expect((await t().call(contactInfo, { token: owner.token, query: { uuid: made[3]!.uuid.toUpperCase() } })).data).toMatchObject({ name: '联系人3' });

    expect(await t().call(editContact, { token: owner.token, body: { uuid: made[3]!.uuid, name: '改名', email: made[3]!.email } })).toMatchObject({ code: 200, msg: M.saved });
    expect((await t().call(contactInfo, { token: owner.token, query: { uuid: made[3]!.uuid } })).data).toMatchObject({ name: '改名', email: made[3]!.email });
    expect(await t().call(deleteContact, { token: owner.token, body: { uuid: made[3]!.uuid } })).toMatchObject({ code: 200, msg: M.deleted });
    expect(await t().call(contactInfo, { token: owner.token, query: { uuid: made[3]!.uuid } })).toMatchObject({ code: CODE.notFound, msg: M.contactNotFound });
    expect((await t().call(listContacts, { token: owner.token, query: { page: 1 } })).count).toBe(11);
  });

  it.each([
    ['no name', { email: 'x@example.com' }, M.contactNameRequired],
    ['a blank name', { name: '  ', email: 'x@example.com' }, M.contactNameRequired],
    ['a long name', { name: 'n'.repeat(33), email: 'x@example.com' }, fmt(M.contactNameTooLong, { n: 32 })],
    ['no email', { name: '值班' }, M.contactEmailRequired],
    ['an empty email', { name: '值班', email: '' }, M.contactEmailRequired],
    ['a malformed email', { name: '值班', email: 'not-an-email' }, M.emailInvalid],
    ['an overlong email', { name: '值班', email: `${'e'.repeat(60)}@example.com` }, M.emailInvalid],
  ])('refuses a contact with %s', async (_n, body, msg) => {
    await refused(() => t().call(createContact, { token: a.token, body }), CODE.invalid, msg);
  });

  it('keeps emails unique in the tenant, whatever their case, on create and on edit', async () => {
    const first = await addContact(t(), a.token, '甲');
    const second = await addContact(t(), a.token, '乙');
    await refused(() => t().call(createContact, { token: a.token, body: { name: '丙', email: first.email.toUpperCase() } }), CODE.invalid, M.contactEmailTaken);
    await refused(() => t().call(editContact, { token: a.token, body: { uuid: second.uuid, name: '乙', email: first.email } }), CODE.invalid, M.contactEmailTaken);
    // Another tenant may use the same address.
    const b = await newAccount(t());
    expect((await t().call(createContact, { token: b.token, body: { name: '甲', email: first.email } })).code).toBe(200);
  });

  it(`holds a tenant to ${LIMITS.contactsMax} contacts`, async () => {
    const owner = await newAccount(t());
    const now = Date.now();
    await t()
      .db.insertInto('monitor_contact')
      .values(Array.from({ length: LIMITS.contactsMax - 1 }, (_, i) => ({ uuid: crypto.randomUUID(), tenant_id: owner.account.id, name: `c${i}`, email: `q${i}@example.com`, email_key: `q${i}@example.com`, verify_sent_at: null, create_time: now, update_time: now })))
      .execute();
    await addContact(t(), owner.token);
    await refused(() => t().call(createContact, { token: owner.token, body: { name: '多余', email: freshEmail() } }), CODE.invalid, fmt(M.contactsFull, { n: LIMITS.contactsMax }));
  });

  it('mails a validation link that verifies the contact once opened', async () => {
    const c = await addContact(t(), a.token, '验证', freshEmail().toUpperCase());
    expect(await t().call(sendContactValidation, { token: a.token, body: { uuid: c.uuid } })).toMatchObject({ code: 200, msg: M.contactMailSent });
    const mail = await lastLink(t(), c.email);
    // Without HUBLINK_PUBLIC_URL the link opens where the request came to.
    expect(mail.body).toContain(`http://localhost:80/validate/email?s=${mail.code}`);
    expect(mail.body).toContain(M.contactMailPurpose);
    expect((await t().call(validateEmail, { body: { s: mail.code } })).code).toBe(200);
    await t().ctx.events.settle();
    expect((await t().call(contactInfo, { token: a.token, query: { uuid: c.uuid } })).data!.email_verify).toBe(1);
    await refused(() => t().call(sendContactValidation, { token: a.token, body: { uuid: c.uuid } }), CODE.invalid, M.contactAlreadyVerified);
    // A new address is unverified again.
    const renamed = freshEmail();
    await t().call(editContact, { token: a.token, body: { uuid: c.uuid, name: '验证', email: renamed } });
    expect((await t().call(contactInfo, { token: a.token, query: { uuid: c.uuid } })).data).toMatchObject({ email: renamed, email_verify: 0 });
  });

  it('refuses a second mail within the cooldown, saying how long to wait; after it, mails again', async () => {
    const c = await addContact(t(), a.token);
    expect((await t().call(sendContactValidation, { token: a.token, body: { uuid: c.uuid } })).code).toBe(200);
    const before = await monitorSnapshot(t());
    const again = await t().call(sendContactValidation, { token: a.token, body: { uuid: c.uuid } });
    expect(again.code).toBe(CODE.tooMany);
    const left = Number(/(\d+)/.exec(again.msg)?.[1]);
    expect(again.msg).toBe(fmt(M.contactMailTooSoon, { n: left }));
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual(LIMITS.contactEmailCooldownSeconds);
    expect(await monitorSnapshot(t())).toEqual(before);
    await cooldownOver(t(), c.uuid);
    expect((await t().call(sendContactValidation, { token: a.token, body: { uuid: c.uuid } })).code).toBe(200);
  });

  it('limits the mails one address receives, whatever the cooldowns', async () => {
    const c = await addContact(t(), a.token);
    for (let i = 0; i < 5; i++) {
      expect((await t().call(sendContactValidation, { token: a.token, body: { uuid: c.uuid } })).code).toBe(200);
      await cooldownOver(t(), c.uuid);
    }
    const res = await t().call(sendContactValidation, { token: a.token, body: { uuid: c.uuid } });
    expect(res).toMatchObject({ code: CODE.tooMany, msg: M.contactMailLimit });
    // The refused attempt did not start a cooldown.
    expect((await t().db.selectFrom('monitor_contact').select('verify_sent_at').where('uuid', '=', c.uuid).executeTakeFirstOrThrow()).verify_sent_at).toBeLessThan(Date.now() - 59_000);
  });

  it('ends the open link when the address changes or the contact goes', async () => {
    const moved = await addContact(t(), a.token);
    await t().call(sendContactValidation, { token: a.token, body: { uuid: moved.uuid } });
    const movedLink = (await lastLink(t(), moved.email)).code;
    await t().call(editContact, { token: a.token, body: { uuid: moved.uuid, name: '搬家', email: freshEmail() } });
    expect(await t().call(validateEmail, { body: { s: movedLink } })).toMatchObject({ code: CODE.invalid, msg: M.validateLinkInvalid });

    const gone = await addContact(t(), a.token);
    await t().call(sendContactValidation, { token: a.token, body: { uuid: gone.uuid } });
    const goneLink = (await lastLink(t(), gone.email)).code;
    await t().call(deleteContact, { token: a.token, body: { uuid: gone.uuid } });
    expect(await t().call(validateEmail, { body: { s: goneLink } })).toMatchObject({ code: CODE.invalid, msg: M.validateLinkInvalid });
  });

  it('uses HUBLINK_PUBLIC_URL for the link when it is set', async () => {
    const c = await addContact(t(), a.token);
    const saved = t().ctx.config.publicUrl;
    t().ctx.config.publicUrl = 'https://console.example.com';
    try {
      await t().call(sendContactValidation, { token: a.token, body: { uuid: c.uuid } });
    } finally {
      t().ctx.config.publicUrl = saved;
    }
    const mail = await lastLink(t(), c.email);
    expect(mail.body).toContain(`https://console.example.com/validate/email?s=${mail.code}`);
  });

  it("refuses another tenant's contact as unknown, and a malformed id", async () => {
    const c = await addContact(t(), a.token);
    const b = await newAccount(t());
    await refused(() => t().call(contactInfo, { token: b.token, query: { uuid: c.uuid } }), CODE.notFound, M.contactNotFound);
    await refused(() => t().call(editContact, { token: b.token, body: { uuid: c.uuid, name: 'B', email: freshEmail() } }), CODE.notFound, M.contactNotFound);
    await refused(() => t().call(deleteContact, { token: b.token, body: { uuid: c.uuid } }), CODE.notFound, M.contactNotFound);
    await refused(() => t().call(sendContactValidation, { token: b.token, body: { uuid: c.uuid } }), CODE.notFound, M.contactNotFound);
    expect((await t().call(listContacts, { token: b.token, query: { page: 1 } })).data!.map((x) => x.uuid)).not.toContain(c.uuid);
    await refused(() => t().call(deleteContact, { token: a.token, body: { uuid: 'not-a-uuid' } }), CODE.invalid, M.validationFailed);
  });

  it('lets a role with view read contacts, and only a role with edit change them or send mail', async () => {
    const c = await addContact(t(), a.token);
    const viewer = await ramToken(t(), a.account.id, { ...FULL_ROLE, monitor: { view: 1, create: 1, edit: 0, delete: 1 } });
    expect((await t().call(listContacts, { token: viewer, query: { page: 1 } })).code).toBe(200);
    expect((await t().call(contactInfo, { token: viewer, query: { uuid: c.uuid } })).code).toBe(200);
    for (const call of [
      () => t().call(createContact, { token: viewer, body: { name: '越权', email: freshEmail() } }),
      () => t().call(editContact, { token: viewer, body: { uuid: c.uuid, name: '越权', email: c.email } }),
      () => t().call(deleteContact, { token: viewer, body: { uuid: c.uuid } }),
      () => t().call(sendContactValidation, { token: viewer, body: { uuid: c.uuid } }),
    ]) {
      await refused(call, CODE.forbidden, M.deniedPermission);
    }
    const editor = await ramToken(t(), a.account.id, { ...FULL_ROLE, monitor: { view: 1, create: 0, edit: 1, delete: 0 } });
    expect((await t().call(editContact, { token: editor, body: { uuid: c.uuid, name: '子账号改', email: c.email } })).code).toBe(200);
    expect((await t().call(sendContactValidation, { token: editor, body: { uuid: c.uuid } })).code).toBe(200);
    expect((await t().call(deleteContact, { token: editor, body: { uuid: c.uuid } })).code).toBe(200);
  });
});
