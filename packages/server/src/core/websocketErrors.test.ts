import net from 'node:net';
import { DEVICE_LIMITS } from '@hublink/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers';
import { LEVEL, logCapture } from '../../test/logLines';
import { until } from '../../test/until';
import { BAD_FRAME_LOG_WINDOW_MS, LogThrottle, OTHER_ADDRESSES } from './websocketErrors';

const { lines, logStream } = logCapture();

/** A 64-bit payload length (RFC 6455 §5.2). */
const length64 = (n: bigint) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(n);
  return b;
};

/** Frames no client may send (RFC 6455 §5): each makes ws close the connection with an error. */
const mask = [0x11, 0x22, 0x33, 0x44];
const BAD_FRAMES: Record<string, Buffer> = {
  // Opcode 3 is reserved.
  'reserved opcode': Buffer.from([0x83, 0x80, ...mask]),
  // A client's frames are masked.
  'unmasked frame': Buffer.from([0x81, 0x02, 0x68, 0x69]),
  // A length past the gateway's limit, refused from the header alone.
  'oversized frame': Buffer.concat([Buffer.from([0x82, 0xff]), length64(BigInt(DEVICE_LIMITS.maxMessageBytes) * 4n), Buffer.from(mask)]),
};

describe('malformed WebSocket frames from clients that never signed in', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    // X-Forwarded-For gives each test connection the address it names (a proxy in front, as deployed).
    t = await createTestApp('sqlite', { config: { logLevel: 'info', trustProxy: true }, logStream });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as net.AddressInfo).port;
    return () => t.close();
  });

  /** Opens the device gateway's WebSocket by hand as `address`, sends `frame` and waits for the server to close the connection. */
  const sendBadFrame = (address: string, frame: Buffer) =>
    new Promise<string>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () =>
        socket.write(
          [
            'GET /api/device/v1/ws HTTP/1.1',
            'Host: 127.0.0.1',
            'Upgrade: websocket',
            'Connection: Upgrade',
            'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
            'Sec-WebSocket-Version: 13',
            `X-Forwarded-For: ${address}`,
            '',
            '',
          ].join('\r\n'),
        ),
      );
      let text = '';
      let sent = false;
      socket.on('data', (d) => {
        text += d.toString('latin1');
        if (!sent && text.includes('\r\n\r\n')) {
          sent = true;
          if (!text.startsWith('HTTP/1.1 101')) return reject(new Error(`no upgrade: ${text.slice(0, 80)}`));
          socket.write(frame);
        }
      });
      socket.on('error', () => undefined);
      socket.on('close', () => resolve(text));
    });

  const frameLines = () => lines.filter((l) => typeof l.msg === 'string' && l.msg.startsWith('websocket:'));

  it('each is one warn line without a stack, at most one per address a minute, and nothing at error level', async () => {
    // Each kind from an address of its own, three connections each; then one address sending them all, twice.
    const kinds = Object.entries(BAD_FRAMES).map(([kind, frame], i) => ({ kind, frame, address: `203.0.113.${10 + i}` }));
    const sends = [...kinds.flatMap((k) => [k, k, k]), ...[...kinds, ...kinds].map((k) => ({ ...k, address: '203.0.113.99' }))];
    for (const { kind, frame, address } of sends) {
      const answer = await sendBadFrame(address, frame);
      expect({ kind, upgraded: answer.startsWith('HTTP/1.1 101') }).toEqual({ kind, upgraded: true });
    }
    // Every connection is closed; the lines of the last ones are written by then.
    await until(() => lines.filter((l) => l.level >= LEVEL.warn).length >= kinds.length + 1, 'the lines are written');
    // Not one line of them at error level (the plugin's default wrote one per connection, with its stack).
    expect(lines.filter((l) => l.level >= LEVEL.error)).toEqual([]);
    const said = frameLines();
    expect(said.map((l) => ({ level: l.level, remoteAddress: l.remoteAddress, code: l.code, heldBack: l.heldBack }))).toEqual([
      { level: LEVEL.warn, remoteAddress: kinds[0]!.address, code: 'WS_ERR_INVALID_OPCODE', heldBack: 0 },
      { level: LEVEL.warn, remoteAddress: kinds[1]!.address, code: 'WS_ERR_EXPECTED_MASK', heldBack: 0 },
      { level: LEVEL.warn, remoteAddress: kinds[2]!.address, code: 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH', heldBack: 0 },
      { level: LEVEL.warn, remoteAddress: '203.0.113.99', code: 'WS_ERR_INVALID_OPCODE', heldBack: 0 },
    ]);
    for (const l of said) {
      expect(l).toMatchObject({ url: '/api/device/v1/ws', reason: expect.any(String) });
      expect(l).not.toHaveProperty('err');
      expect(l).not.toHaveProperty('stack');
      expect(JSON.stringify(l)).not.toMatch(/\n\s+at /);
    }
    expect(sends.length).toBe(15);
  });
});

describe('the throttle of those lines', () => {
  it('says the first of a key at once, holds back the rest of its window and counts them in the next line', () => {
    const throttle = new LogThrottle(BAD_FRAME_LOG_WINDOW_MS, 10);
    const t0 = 1_000_000;
    expect(throttle.take('a', t0)).toEqual({ key: 'a', held: 0 });
    for (let i = 1; i <= 5; i++) expect(throttle.take('a', t0 + i)).toBeNull();
    expect(throttle.take('b', t0 + 10)).toEqual({ key: 'b', held: 0 });
    expect(throttle.take('a', t0 + BAD_FRAME_LOG_WINDOW_MS - 1)).toBeNull();
    expect(throttle.take('a', t0 + BAD_FRAME_LOG_WINDOW_MS)).toEqual({ key: 'a', held: 6 });
    expect(throttle.take('a', t0 + BAD_FRAME_LOG_WINDOW_MS + 1)).toBeNull();
  });

  it('holds at most its bound of keys: addresses past it share one line a window, ended windows make room', () => {
    const throttle = new LogThrottle(BAD_FRAME_LOG_WINDOW_MS, 100);
    const t0 = 1_000_000;
    const said = [];
    for (let i = 0; i < 10_000; i++) {
      const line = throttle.take(`10.0.${i >> 8}.${i & 255}`, t0 + i);
      if (line) said.push(line);
      expect(throttle.size).toBeLessThanOrEqual(101);
    }
    expect(said.length).toBe(101);
    expect(said.at(-1)).toEqual({ key: OTHER_ADDRESSES, held: 0 });
    // Once their windows end, the first keys' entries go and new addresses get lines of their own again.
    const later = t0 + 10_000 + BAD_FRAME_LOG_WINDOW_MS;
    expect(throttle.take('192.0.2.1', later)).toEqual({ key: '192.0.2.1', held: 0 });
    expect(throttle.size).toBeLessThanOrEqual(101);
  });
});
