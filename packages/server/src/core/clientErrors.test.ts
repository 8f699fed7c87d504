import net from 'node:net';
import { CODE, M } from '@hublink/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers';
import { listenForMetrics } from './metricsServer';

/*
 * Requests Node's HTTP parser refuses before any route sees them (issue 32, item 7): a 100k-character
 * URL, a request line that is not HTTP, headers past 16 KB, a header that breaks the grammar. Each
 * gets an HTTP answer carrying the envelope, the connection closes, and the server goes on serving.
 * The device gateway (/api/device/v1) is a module of the same Fastify instance, on the same port,
 * so it is covered by the same handler.
 */

interface Answer {
  status: number;
  headers: string;
  body: string;
}

/** Every HTTP answer in `text` (one connection's bytes), split by their Content-Length. */
function answersIn(text: string): Answer[] {
  const out: Answer[] = [];
  let rest = text;
  while (rest.startsWith('HTTP/1.1 ')) {
    const end = rest.indexOf('\r\n\r\n');
    const head = rest.slice(0, end);
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
    const body = Buffer.from(rest.slice(end + 4), 'utf8').subarray(0, length).toString('utf8');
    out.push({ status: Number(head.split(' ')[1]), headers: head.toLowerCase(), body });
    rest = rest.slice(end + 4 + body.length);
  }
  if (rest.length > 0) throw new Error(`bytes that are no HTTP answer: ${JSON.stringify(rest.slice(0, 80))}`);
  return out;
}

/** Sends raw bytes on a new connection to `port` and reads every answer until the server closes it. */
function sendTo(port: number, bytes: string): Promise<Answer[]> {
  return new Promise<Answer[]>((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(bytes));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (text += d));
    socket.on('error', reject);
    socket.on('close', () => {
      try {
        resolve(answersIn(text));
      } catch (e) {
        reject(e as Error);
      }
    });
  });
}

describe('requests the HTTP parser refuses answer in the envelope, and the server goes on', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as net.AddressInfo).port;
  });
  afterAll(() => t?.close());

  const send = (bytes: string) => sendTo(port, bytes);

  const good = 'GET /api/v1/site/info HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';
  const served = async () => {
    const [answer, ...more] = await send(good.replace('\r\n\r\n', '\r\nConnection: close\r\n\r\n'));
    expect(more).toEqual([]);
    expect({ status: answer!.status, code: (JSON.parse(answer!.body) as { code: number }).code }).toEqual({ status: 200, code: CODE.ok });
  };

  const refusals: [string, string, number, string][] = [
    ['a 100k-character URL', `GET /api/v1/site/info?q=${'a'.repeat(100_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 431, M.requestTooLarge],
    ["a 100k-character URL to the device gateway's path", `GET /api/device/v1/ws?${'a'.repeat(100_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 431, M.requestTooLarge],
    ['a malformed request line', 'GET /api/v1/site/info HTTP/9.Z\r\nHost: x\r\n\r\n', 400, M.requestMalformed],
    ['bytes that are not HTTP', '\u0000\u0001\u0002 hello\r\n\r\n', 400, M.requestMalformed],
    ['an oversized header', `GET /api/v1/site/info HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(100_000)}\r\n\r\n`, 431, M.requestTooLarge],
    ['many headers past 16 KB together', `GET /api/v1/site/info HTTP/1.1\r\nHost: x\r\n${Array.from({ length: 400 }, (_, i) => `X-H${i}: ${'c'.repeat(60)}`).join('\r\n')}\r\n\r\n`, 431, M.requestTooLarge],
    ['a header name with a space', 'GET /api/v1/site/info HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n', 400, M.requestMalformed],
    ['a control character in a header value', 'GET /api/v1/site/info HTTP/1.1\r\nHost: x\r\nX-A: a\u0001b\r\n\r\n', 400, M.requestMalformed],
    ['a negative Content-Length', 'GET /api/v1/site/info HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n', 400, M.requestMalformed],
    ['Content-Length and Transfer-Encoding together', 'POST /api/v1/site/info HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n', 400, M.requestMalformed],
  ];

  it.each(refusals)('%s: an HTTP answer with the envelope, then the next request is served', async (_name, bytes, status, msg) => {
    const answers = await send(bytes);
    expect(answers.map((a) => ({ status: a.status, body: JSON.parse(a.body) as unknown }))).toEqual([{ status, body: { code: CODE.invalid, msg } }]);
    expect(answers[0]!.headers).toContain('content-type: application/json');
    expect(answers[0]!.headers).toContain('connection: close');
    expect(answers[0]!.headers).toContain('x-content-type-options: nosniff');
    await served();
  });

  it('refused bytes after a good request on the same connection: the good one is answered first, then the refusal', async () => {
    for (const [, bad, status, msg] of refusals) {
      const answers = await send(good + bad);
      expect(answers.map((a) => ({ status: a.status, code: (JSON.parse(a.body) as { code: number; msg: string }).code, msg: (JSON.parse(a.body) as { msg: string }).msg }))).toEqual([
        { status: 200, code: CODE.ok, msg: expect.any(String) },
        { status, code: CODE.invalid, msg },
      ]);
    }
    await served();
  });
});

describe('the metrics port answers refused requests in the envelope too', () => {
  it('a 100k-character URL and bytes that are not HTTP', async () => {
    const metrics = await listenForMetrics({ port: 0, host: '127.0.0.1' }, async () => ({ contentType: 'text/plain', text: '' }), { error: () => undefined, info: () => undefined });
    try {
      for (const [bytes, status, msg] of [
        [`GET /metrics?q=${'a'.repeat(100_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 431, M.requestTooLarge],
        ['\u0000\u0001 hello\r\n\r\n', 400, M.requestMalformed],
      ] as const) {
        const answers = await sendTo(metrics.port, bytes);
        expect(answers.map((a) => ({ status: a.status, body: JSON.parse(a.body) as unknown }))).toEqual([{ status, body: { code: CODE.invalid, msg } }]);
      }
    } finally {
      await metrics.close();
    }
  });
});
