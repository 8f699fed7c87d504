import { createHmac } from 'node:crypto';
import { fmt, M, WEBHOOK_TYPES, type WebhookType } from '@hublink/contract';
import type { Ctx } from '../../core/context';
import { OutboundError, outboundRequest, type OutboundFailure, type OutboundResponse } from '../../core/outbound';

/*
 * The webhook providers, each in its documented format:
 * - DingTalk custom robot: POST {msgtype:'markdown', markdown:{title, text}} to the robot's URL, with
 *   `timestamp` (ms) and `sign` = urlencode(base64(HmacSHA256(key=secret, msg=`${timestamp}\n${secret}`)))
 *   added to the query when the robot has a secret; it took the message when it answers errcode 0.
 * - Feishu custom bot: POST {timestamp (s), sign, msg_type:'text', content:{text}}, where
 *   sign = base64(HmacSHA256(key=`${timestamp}\n${secret}`, msg='')); success is code 0 (StatusCode 0
 *   in the bot's older answers).
 * - WeCom group robot: POST {msgtype:'markdown', markdown:{content}}, or {msgtype:'text', text:{content,
 *   mentioned_list, mentioned_mobile_list}} when it mentions someone; no signing; success errcode 0.
 * - other: POST our own JSON document (below) with, when a secret is set, the headers
 *   X-HubLink-Timestamp (ms) and X-HubLink-Signature: sha256=hex(HmacSHA256(key=secret,
 *   msg=`${timestamp}.${body}`)); any 2xx answer is success.
 * Mentions (issue 33): DingTalk's `at` {atMobiles, atUserIds, isAtAll} with "@…" in the text, Feishu's
 * <at user_id="…"></at> in the text, WeCom's mention lists; 'other' carries none.
 * A non-2xx answer, or a provider's error code, is a failed attempt.
 */

/** What one webhook message says. */
export interface WebhookMessage {
  /** An alert kind ('router_offline', …) or 'test'. */
  event: string;
  title: string;
  text: string;
  router_name?: string;
  note?: string;
  /** When it happened, epoch ms, and as the service's time zone reads it. */
  at: number;
  time: string;
  alert_id?: number;
  /** A summary's alerts (event 'summary', dispatch.ts): all of them, for the 'other' provider's JSON. */
  alerts?: { event: string; alert_id: number; router_name: string; title: string; at: number; time: string }[];
}

/** Whom a message mentions: mobiles (DingTalk, WeCom), user ids (DingTalk userId, Feishu open_id, WeCom userid), everyone. */
export interface WebhookMentions {
  mobiles: string[];
  userIds: string[];
  all: boolean;
}

export interface WebhookTarget {
  type: WebhookType;
  url: string;
  /** '' for none. */
  secret: string;
  /** The webhook's name in the console (absent for the spec's test of an unsaved webhook). */
  name?: string;
  mentions?: WebhookMentions;
}

const NO_MENTIONS: WebhookMentions = { mobiles: [], userIds: [], all: false };
const mentionsIn = (m: WebhookMentions) => m.mobiles.length > 0 || m.userIds.length > 0 || m.all;


export interface BuiltRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

const hmac = (key: string | Buffer, msg: string) => createHmac('sha256', key).update(msg, 'utf8').digest();

const withQuery = (url: string, params: Record<string, string>) => {
  const u = new URL(url);
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  return u.toString();
};

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

/** The request a provider expects for one message; `now` is the signing time (epoch ms). */
export function buildRequest(target: WebhookTarget, message: WebhookMessage, now = Date.now()): BuiltRequest {
  const mentions = target.mentions ?? NO_MENTIONS;
  switch (target.type) {
    case 'dingtalk': {
      // DingTalk highlights a mention only when "@<mobile or userId>" is also in the text.
      const ats = [...mentions.mobiles, ...mentions.userIds].map((m) => `@${m}`);
      if (mentions.all) ats.push('@all');
      const text = `#### ${message.title}\n\n${message.text}${ats.length ? `\n\n${ats.join(' ')}` : ''}`;
      const at = { atMobiles: mentions.mobiles, atUserIds: mentions.userIds, isAtAll: mentions.all };
      const body = JSON.stringify({ msgtype: 'markdown', markdown: { title: message.title, text }, ...(mentionsIn(mentions) ? { at } : {}) });
      if (!target.secret) return { url: target.url, headers: JSON_HEADERS, body };
      const timestamp = String(now);
      const sign = hmac(target.secret, `${timestamp}\n${target.secret}`).toString('base64');
      // URLSearchParams encodes the sign's + / = as the robot expects (its urlencode).
      return { url: withQuery(target.url, { timestamp, sign }), headers: JSON_HEADERS, body };
    }
    case 'feishu': {
      // A Feishu text message mentions with <at user_id="open_id"></at>, everyone with user_id="all".
      const ats = mentions.userIds.map((id) => `<at user_id="${escapeAttr(id)}"></at>`);
      if (mentions.all) ats.push(`<at user_id="all">${M.webhookMentionAll}</at>`);
      const content = { text: `${message.title}\n${message.text}${ats.length ? `\n${ats.join(' ')}` : ''}` };
      if (!target.secret) return { url: target.url, headers: JSON_HEADERS, body: JSON.stringify({ msg_type: 'text', content }) };
      const timestamp = String(Math.floor(now / 1000));
      const sign = hmac(`${timestamp}\n${target.secret}`, '').toString('base64');
      return { url: target.url, headers: JSON_HEADERS, body: JSON.stringify({ timestamp, sign, msg_type: 'text', content }) };
    }
    case 'wecom': {
      if (!mentionsIn(mentions)) {
        return { url: target.url, headers: JSON_HEADERS, body: JSON.stringify({ msgtype: 'markdown', markdown: { content: `**${message.title}**\n${message.text}` } }) };
      }
      // Only WeCom's text messages carry mentioned_list / mentioned_mobile_list ("@all" for everyone).
      const text = {
        content: `${message.title}\n${message.text}`,
        mentioned_list: [...mentions.userIds, ...(mentions.all ? ['@all'] : [])],
        mentioned_mobile_list: mentions.mobiles,
      };
      return { url: target.url, headers: JSON_HEADERS, body: JSON.stringify({ msgtype: 'text', text }) };
    }
    case 'other': {
      const body = JSON.stringify(message);
      if (!target.secret) return { url: target.url, headers: JSON_HEADERS, body };
      const timestamp = String(now);
      const signature = hmac(target.secret, `${timestamp}.${body}`).toString('hex');
      return { url: target.url, headers: { ...JSON_HEADERS, 'x-hublink-timestamp': timestamp, 'x-hublink-signature': `sha256=${signature}` }, body };
    }
  }
}

const escapeAttr = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** A send's outcome: ok, or why not in words the console shows (Chinese). */
export type SendResult = { ok: true } | { ok: false; reason: string };

const FAILURES: Record<OutboundFailure, string> = {
  invalid_url: M.webhookFailInvalidUrl,
  private_address: M.webhookFailPrivate,
  dns: M.webhookFailDns,
  connect: M.webhookFailConnect,
  timeout: M.webhookFailTimeout,
  too_large: M.webhookFailTooLarge,
  tls: M.webhookFailTls,
};

const ERROR_TEXT_MAX = 200;

/** Whether the provider took the message, from its answer. */
export function judge(type: WebhookType, res: OutboundResponse): SendResult {
  if (res.status < 200 || res.status > 299) return { ok: false, reason: fmt(M.webhookFailHttp, { status: res.status }) };
  if (type === 'other') return { ok: true };
  const provider = WEBHOOK_TYPES[type];
  let answer: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(res.body.toString('utf8'));
    if (!parsed || typeof parsed !== 'object') throw new Error('not an object');
    answer = parsed as Record<string, unknown>;
  } catch {
    return { ok: false, reason: fmt(M.webhookFailUnreadable, { provider }) };
  }
  const code = type === 'feishu' ? (answer.code ?? answer.StatusCode) : answer.errcode;
  if (code === 0) return { ok: true };
  if (typeof code !== 'number' && typeof code !== 'string') return { ok: false, reason: fmt(M.webhookFailUnreadable, { provider }) };
  const msg = type === 'feishu' ? (answer.msg ?? answer.StatusMessage) : answer.errmsg;
  return { ok: false, reason: fmt(M.webhookFailProvider, { provider, code: String(code), msg: String(msg ?? '').slice(0, ERROR_TEXT_MAX) }) };
}

/** Sends one message to a webhook under the outbound rules (bounded, no private targets unless allowed). */
export async function sendWebhook(config: Ctx['config'], target: WebhookTarget, message: WebhookMessage, timeoutMs?: number): Promise<SendResult> {
  const req = buildRequest(target, message);
  try {
    const res = await outboundRequest(config, { url: req.url, method: 'POST', headers: req.headers, body: req.body, timeoutMs });
    return judge(target.type, res);
  } catch (e) {
    if (e instanceof OutboundError) return { ok: false, reason: FAILURES[e.reason] };
    throw e;
  }
}
