import { M, validateEmail } from '@hublink/contract';
import { expect, it } from 'vitest';
import { describeEachDatabase, newAccount, type BuiltApp, type TestApp } from '../../../test/helpers';
import { cancelEmailValidations, issueEmailValidation } from '../../core/emailValidation';
import { freshEmail } from './fixtures';

// A subject of the test's own: its module records each confirmed link (email.validated) in `confirmed`.
const confirmed: string[] = [];
const subscribeTestSubject = (app: BuiltApp) =>
  app.ctx.events.subscribe('test', {
    'email.validated': async (e) => {
      if (e.subject === 'test_subject') confirmed.push(`${e.subject_id}:${e.email}`);
    },
  });

async function issue(t: TestApp, tenantId: number, subjectId: string, email = freshEmail()) {
  const token = await issueEmailValidation(t.ctx, {
    tenant_id: tenantId,
    email,
    subject: 'test_subject',
    subject_id: subjectId,
    origin: 'https://console.example.com/',
    purpose: '您正在验证告警联系人邮箱',
  });
  return { token, email };
}

const rowsOf = (t: TestApp) => t.db.selectFrom('email_validation').selectAll().orderBy('id').execute();

describeEachDatabase('POST /contacts/validate_email', (t) => {
  it('mails a link and confirms it once, without a token', async () => {
    const a = await newAccount(t());
    const { token, email } = await issue(t(), a.account.id, 'c1', freshEmail().toUpperCase());
    const mail = await t().db.selectFrom('outbox').selectAll().where('recipient', '=', email.toLowerCase()).executeTakeFirstOrThrow();
    expect(mail.body).toContain(`https://console.example.com/validate/email?s=${token}`);
    expect(mail.code).toBe(token);

    expect(await t().call(validateEmail, { body: { s: token } })).toMatchObject({ code: 200, msg: M.emailValidated });
    await t().ctx.events.settle();
    expect(confirmed).toContain(`c1:${email.toLowerCase()}`);
    const before = await rowsOf(t());
    expect(await t().call(validateEmail, { body: { s: token } })).toMatchObject({ code: 422, msg: M.validateLinkInvalid });
    expect(await rowsOf(t())).toEqual(before);
  });

  it('a newer link replaces the older one', async () => {
    const a = await newAccount(t());
    const first = await issue(t(), a.account.id, 'c2');
    const second = await issue(t(), a.account.id, 'c2');
    expect(await t().call(validateEmail, { body: { s: first.token } })).toMatchObject({ code: 422, msg: M.validateLinkInvalid });
    expect((await t().call(validateEmail, { body: { s: second.token } })).code).toBe(200);
  });

  it('refuses an expired link and changes nothing', async () => {
    const a = await newAccount(t());
    const { token } = await issue(t(), a.account.id, 'c3');
    await t().db.updateTable('email_validation').set({ expires_at: Date.now() - 1 }).where('subject_id', '=', 'c3').execute();
    const before = await rowsOf(t());
    expect(await t().call(validateEmail, { body: { s: token } })).toMatchObject({ code: 422, msg: M.validateLinkExpired });
    expect(await rowsOf(t())).toEqual(before);
  });

  it("refuses a link its subject's module cancelled (the address changed or the subject went)", async () => {
    const a = await newAccount(t());
    const { token } = await issue(t(), a.account.id, 'gone');
    await cancelEmailValidations(t().db, { tenant_id: a.account.id, subject: 'test_subject', subject_id: 'gone' });
    const before = await rowsOf(t());
    expect(await t().call(validateEmail, { body: { s: token } })).toMatchObject({ code: 422, msg: M.validateLinkInvalid });
    expect(await rowsOf(t())).toEqual(before);
  });

  it.each([
    ['unknown token', { s: 'nosuchtoken' }],
    ['empty token', { s: '' }],
    ['missing token', {}],
    ['overlong token', { s: 'x'.repeat(200) }],
  ])('refuses %s', async (_name, body) => {
    const before = await rowsOf(t());
    expect(await t().call(validateEmail, { body })).toMatchObject({ code: 422, msg: M.validateLinkInvalid });
    expect(await rowsOf(t())).toEqual(before);
  });
}, { beforeReady: subscribeTestSubject });
