import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A local stand-in for the webhook providers, speaking each one's documented API on its own path:
 * /dingtalk (custom robot: timestamp and sign in the query), /feishu (custom bot: timestamp and sign
 * in the body), /wecom (group robot: no signing), /other (HubLink's own JSON with its signature
 * headers). It checks what a provider checks, with its own code written from the providers' documents
 * (not the server's), answers as the provider would, and records every request. Mentions are checked
 * for their documented shape (DingTalk's `at`, WeCom's text message lists; Feishu's are in its text).
 */

export interface ReceivedHook {
  path: string;
  query: Record<string, string>;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
  /** The signature (or, unsigned, the format) was what the provider requires. */
  valid: boolean;
  /** When it arrived, epoch ms. */
  at: number;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedHook[];
  /** The next `n` requests to `path` answer as a failing provider would (an error code, or HTTP 500 for /other). */
  failNext(path: string, n: number): void;
  close(): Promise<void>;
}

const hmac = (key: string, msg: string) => createHmac('sha256', key).update(msg, 'utf8').digest();
const same = (a: Buffer, b: Buffer) => a.length === b.length && timingSafeEqual(a, b);
const HOUR_MS = 3600_000;
const stringsOrAbsent = (v: unknown) => v === undefined || (Array.isArray(v) && v.every((x) => typeof x === 'string'));

/** Starts a receiver on a free port of 127.0.0.1 whose robots use `secret`. */
export async function startWebhookReceiver(secret: string): Promise<WebhookReceiver> {
  const received: ReceivedHook[] = [];
  const failing = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://receiver');
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        /* recorded as invalid below */
      }
      const query = Object.fromEntries(url.searchParams);
      const valid = check(url.pathname, query, req.headers, body, raw);
      received.push({ path: url.pathname, query, headers: req.headers, body, valid, at: Date.now() });
      const failures = failing.get(url.pathname) ?? 0;
      if (failures > 0) failing.set(url.pathname, failures - 1);
      const answer = respond(url.pathname, valid, failures > 0);
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
    });
  });

  function check(path: string, query: Record<string, string>, headers: http.IncomingHttpHeaders, body: Record<string, unknown>, raw: string): boolean {
    switch (path) {
      case '/dingtalk': {
        // sign = urlencode(base64(HmacSHA256(secret, timestamp + "\n" + secret))); the query arrives decoded.
        const timestamp = query.timestamp ?? '';
        if (Math.abs(Date.now() - Number(timestamp)) > HOUR_MS) return false;
        const expected = hmac(secret, `${timestamp}\n${secret}`);
        const markdown = body.markdown as { title?: unknown; text?: unknown } | undefined;
        // `at`, when present: atMobiles and atUserIds lists of strings, isAtAll a boolean.
        const at = body.at as { atMobiles?: unknown; atUserIds?: unknown; isAtAll?: unknown } | undefined;
        const atValid = at === undefined || (stringsOrAbsent(at.atMobiles) && stringsOrAbsent(at.atUserIds) && (at.isAtAll === undefined || typeof at.isAtAll === 'boolean'));
        return (
          !!query.access_token &&
          atValid &&
          body.msgtype === 'markdown' &&
          typeof markdown?.title === 'string' &&
          typeof markdown.text === 'string' &&
          same(Buffer.from(query.sign ?? '', 'base64'), expected)
        );
      }
      case '/feishu': {
        // sign = base64(HmacSHA256(key = timestamp + "\n" + secret, message = '')); timestamp in seconds.
        const timestamp = String(body.timestamp ?? '');
        if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 3600) return false;
        const expected = hmac(`${timestamp}\n${secret}`, '');
        const content = body.content as { text?: unknown } | undefined;
        return body.msg_type === 'text' && typeof content?.text === 'string' && same(Buffer.from(String(body.sign ?? ''), 'base64'), expected);
      }
      case '/wecom': {
        if (Object.keys(query).length !== 0) return false;
        if (body.msgtype === 'text') {
          // Mentions travel only in a text message: mentioned_list (userids, "@all") and mentioned_mobile_list.
          const text = body.text as { content?: unknown; mentioned_list?: unknown; mentioned_mobile_list?: unknown } | undefined;
          return typeof text?.content === 'string' && stringsOrAbsent(text.mentioned_list) && stringsOrAbsent(text.mentioned_mobile_list);
        }
        const markdown = body.markdown as { content?: unknown } | undefined;
        return body.msgtype === 'markdown' && typeof markdown?.content === 'string';
      }
      case '/other': {
        const timestamp = String(headers['x-hublink-timestamp'] ?? '');
        const signature = String(headers['x-hublink-signature'] ?? '');
        const expected = `sha256=${hmac(secret, `${timestamp}.${raw}`).toString('hex')}`;
        return typeof body.title === 'string' && typeof body.text === 'string' && typeof body.event === 'string' && same(Buffer.from(signature), Buffer.from(expected));
      }
      default:
        return false;
    }
  }

  function respond(path: string, valid: boolean, fail: boolean): { status: number; body: object } {
    switch (path) {
      case '/dingtalk':
        if (fail) return { status: 200, body: { errcode: 130101, errmsg: 'send too fast, exceed 20 times per minute' } };
        return valid ? { status: 200, body: { errcode: 0, errmsg: 'ok' } } : { status: 200, body: { errcode: 310000, errmsg: 'sign not match' } };
      case '/feishu':
        if (fail) return { status: 200, body: { code: 9499, msg: 'Bad Request', data: {} } };
        return valid ? { status: 200, body: { code: 0, msg: 'success', data: {} } } : { status: 200, body: { code: 19021, msg: 'sign match fail or timestamp is not within one hour from current time', data: {} } };
      case '/wecom':
        if (fail) return { status: 200, body: { errcode: 45009, errmsg: 'api freq out of limit' } };
        return valid ? { status: 200, body: { errcode: 0, errmsg: 'ok' } } : { status: 200, body: { errcode: 40008, errmsg: 'invalid message type' } };
      case '/other':
        if (fail) return { status: 500, body: { error: 'unavailable' } };
        return valid ? { status: 204, body: {} } : { status: 401, body: { error: 'bad signature' } };
      default:
        return { status: 404, body: {} };
    }
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    failNext: (path, n) => void failing.set(path, n),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
