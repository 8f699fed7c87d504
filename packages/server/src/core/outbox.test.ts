import { CODE, M, sendRegisterCode } from '@hublink/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Config } from '../config';
import { describeEachDatabase } from '../../test/helpers';
import { mailText, startSmtp, type SmtpReceiver } from '../../test/smtp';

/** A local SMTP server that accepts everything but recipients starting with 'reject'. */
let smtp: SmtpReceiver;
const withSmtp: { config: Partial<Config> } = { config: {} };

beforeAll(async () => {
  smtp = await startSmtp();
  withSmtp.config.smtpUrl = smtp.url;
});

afterAll(async () => {
  await smtp.close();
});

describeEachDatabase(
  'outbox with SMTP_URL',
  (t) => {
    it('delivers an email code over SMTP and records it as sent', async () => {
      const email = 'smtp.receiver@example.com';
      const res = await t().call(sendRegisterCode, { body: { send_type: 'email', send_value: email }, ip: t().nextIp() });
      expect(res).toMatchObject({ code: 200, msg: M.codeSent });
      const code = await t().lastCode(email);
      const mail = smtp.received.filter((m) => m.to.includes(email)).at(-1);
      expect(mail, 'the SMTP server received the mail').toBeDefined();
      expect(mail!.from).toBe('no-reply@hublink.local');
      expect(mailText(mail!.raw)).toContain(code);
      const row = await t().db.selectFrom('outbox').selectAll().where('recipient', '=', email).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: 'sent', error: null, code });
      smtp.received.length = 0;
    });

    it('a phone code still goes to the outbox log (no SMS provider)', async () => {
      const phone = '+86 13712340001';
      expect((await t().call(sendRegisterCode, { body: { send_type: 'phone', send_value: phone }, ip: t().nextIp() })).code).toBe(200);
      const row = await t().db.selectFrom('outbox').selectAll().where('recipient', '=', phone).executeTakeFirstOrThrow();
      expect(row.status).toBe('logged');
    });

    it('a refused delivery is recorded as failed, the caller is told, and the code is withdrawn', async () => {
      const email = 'reject.me@example.com';
      const res = await t().call(sendRegisterCode, { body: { send_type: 'email', send_value: email }, ip: t().nextIp() });
      expect(res).toMatchObject({ code: CODE.internal, status: 500, msg: M.internalError });
      const row = await t().db.selectFrom('outbox').selectAll().where('recipient', '=', email).executeTakeFirstOrThrow();
      expect(row.status).toBe('failed');
      expect(row.error).toMatch(/550|mailbox/);
      expect(await t().db.selectFrom('verification_code').select('id').where('destination', '=', email).execute()).toHaveLength(0);
      // No cooldown after a failed delivery: the retry is tried again at once.
      const retry = await t().call(sendRegisterCode, { body: { send_type: 'email', send_value: email }, ip: t().nextIp() });
      expect(retry.code).toBe(CODE.internal);
    });
  },
  withSmtp,
);

describeEachDatabase('outbox without SMTP_URL', (t) => {
  it('keeps email codes in the outbox as logged', async () => {
    expect(t().ctx.config.smtpUrl).toBeUndefined();
    const email = 'no.smtp@example.com';
    expect((await t().call(sendRegisterCode, { body: { send_type: 'email', send_value: email }, ip: t().nextIp() })).code).toBe(200);
    const row = await t().db.selectFrom('outbox').selectAll().where('recipient', '=', email).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'logged', channel: 'email', error: null });
    expect(row.code).toMatch(/^\d{6}$/);
  });
});
