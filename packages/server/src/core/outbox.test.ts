import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { CODE, M, sendRegisterCode } from '@hublink/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Config } from '../config';
import { describeEachDatabase } from '../../test/helpers';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

/** A local SMTP server that accepts everything but recipients starting with 'reject'. */
const received: Received[] = [];
let server: SMTPServer;
const withSmtp: { config: Partial<Config> } = { config: {} };

beforeAll(async () => {
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith('reject')) return callback(new Error('550 mailbox unavailable'));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  withSmtp.config.smtpUrl = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** The decoded text of a received mail (quoted-printable or base64 bodies included). */
function mailText(raw: string): string {
  const [, ...bodyParts] = raw.split(/\r?\n\r?\n/);
  const body = bodyParts.join('\n\n');
  const qp = body.replace(/=\r?\n/g, '').replace(/(=[0-9A-F]{2})+/g, (m) => Buffer.from(m.replace(/=/g, ''), 'hex').toString('utf8'));
  const b64 = /^[A-Za-z0-9+/=\r\n]+$/.test(body.trim()) ? Buffer.from(body, 'base64').toString('utf8') : '';
  return `${raw}\n${qp}\n${b64}`;
}

describeEachDatabase(
  'outbox with SMTP_URL',
  (t) => {
    it('delivers an email code over SMTP and records it as sent', async () => {
      const email = 'smtp.receiver@example.com';
      const res = await t().call(sendRegisterCode, { body: { send_type: 'email', send_value: email }, ip: t().nextIp() });
      expect(res).toMatchObject({ code: 200, msg: M.codeSent });
      const code = await t().lastCode(email);
      const mail = received.filter((m) => m.to.includes(email)).at(-1);
      expect(mail, 'the SMTP server received the mail').toBeDefined();
      expect(mail!.from).toBe('no-reply@hublink.local');
      expect(mailText(mail!.raw)).toContain(code);
      const row = await t().db.selectFrom('outbox').selectAll().where('recipient', '=', email).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: 'sent', error: null, code });
      received.length = 0;
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
