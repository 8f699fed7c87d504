import nodemailer, { type Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/connect';

export interface OutgoingMessage {
  channel: 'sms' | 'email';
  /** '+86 13800000000' or an email address. */
  to: string;
  subject: string;
  body: string;
  /** The code or link token the message carries (kept for the dev outbox endpoint). */
  code: string;
}

/** A way out of the building: SMTP for email; an SMS provider later. */
export interface Sender {
  readonly channel: 'sms' | 'email';
  send(msg: OutgoingMessage): Promise<void>;
}

export class SmtpSender implements Sender {
  readonly channel = 'email' as const;
  private readonly transport: Transporter;

  constructor(url: string, private readonly from: string) {
    // Bounded waits: a code request must fail within the console's 10 s request timeout, not hang.
    this.transport = nodemailer.createTransport({ url, connectionTimeout: 5000, greetingTimeout: 5000, socketTimeout: 8000 });
  }

  async send(msg: OutgoingMessage) {
    await this.transport.sendMail({ from: this.from, to: msg.to, subject: msg.subject, text: msg.body });
  }
}

/**
 * Every SMS and email goes through the outbox table. When a sender for its channel exists, the
 * message is handed to it; otherwise it stays in the outbox and is written to the server log, which
 * is how development and test instances read their codes.
 */
export class Outbox {
  private readonly senders = new Map<string, Sender>();

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    senders: Sender[],
  ) {
    for (const s of senders) this.senders.set(s.channel, s);
  }

  /** Records the message and hands it to its sender; 'logged' (no sender), 'sent' or 'failed'. */
  async deliver(msg: OutgoingMessage): Promise<'logged' | 'sent' | 'failed'> {
    const sender = this.senders.get(msg.channel);
    let status: 'logged' | 'sent' | 'failed' = 'logged';
    let error: string | null = null;
    if (sender) {
      try {
        await sender.send(msg);
        status = 'sent';
      } catch (e) {
        status = 'failed';
        error = e instanceof Error ? e.message : String(e);
        this.log.error({ channel: msg.channel, err: error }, 'outbox: delivery failed');
      }
    } else {
      this.log.info({ channel: msg.channel, to: msg.to, subject: msg.subject, code: msg.code }, `outbox: ${msg.body}`);
    }
    await this.db
      .insertInto('outbox')
      .values({ channel: msg.channel, recipient: msg.to, subject: msg.subject, body: msg.body, code: msg.code, status, error, create_time: Date.now() })
      .execute();
    return status;
  }
}
