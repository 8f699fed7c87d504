import dgram from 'node:dgram';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Forwarder } from './forwarder';

/*
 * The POP relay's UDP forwarder on 127.0.0.1: each listen port forwards to its center, each client gets
 * its own upstream socket (the center sees one peer per client), a new table keeps the flows of ports
 * that did not change, and idle flows are forgotten.
 */

const HOST = '127.0.0.1';

/** A UDP server that answers every datagram with `<name>:<sender port>:<text>`. */
async function center(name: string) {
  const socket = dgram.createSocket('udp4');
  socket.on('message', (msg, from) => socket.send(`${name}:${from.port}:${String(msg)}`, from.port, from.address));
  await new Promise<void>((resolve) => socket.bind(0, HOST, resolve));
  return { socket, port: (socket.address() as AddressInfo).port };
}

async function client() {
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, HOST, resolve));
  const ask = (port: number, text: string) =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer on ${port}`)), 2000);
      socket.once('message', (msg) => {
        clearTimeout(timer);
        resolve(String(msg));
      });
      socket.send(text, port, HOST);
    });
  return { socket, ask };
}

/** A free UDP port on 127.0.0.1 (bound and released). */
async function freePort(): Promise<number> {
  const s = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => s.bind(0, HOST, resolve));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

const sockets: dgram.Socket[] = [];
let forwarder: Forwarder | undefined;
afterEach(async () => {
  await forwarder?.stop();
  for (const s of sockets.splice(0)) s.close();
});

describe('the relay forwarder', () => {
  it('forwards each port to its center, one upstream flow per client, and counts flows and bytes', async () => {
    const [a, b] = [await center('a'), await center('b')];
    const [c1, c2] = [await client(), await client()];
    sockets.push(a.socket, b.socket, c1.socket, c2.socket);
    const [pa, pb] = [await freePort(), await freePort()];
    const log: string[] = [];
    forwarder = new Forwarder({ log: (l) => log.push(l) }, { bindHost: HOST });
    await forwarder.apply([
      { port: pa, host: HOST, target_port: a.port, label: 'N1/a/router' },
      { port: pb, host: HOST, target_port: b.port, label: 'N1/b/router' },
    ]);
    expect(forwarder.ports()).toEqual([pa, pb].sort((x, y) => x - y));

    const first = await c1.ask(pa, 'hello');
    const [name, upstream1] = first.split(':');
    expect([name, first.endsWith(':hello')]).toEqual(['a', true]);
    // The same client keeps its upstream port; another client gets its own.
    expect((await c1.ask(pa, 'again')).split(':')[1]).toBe(upstream1);
    expect((await c2.ask(pa, 'x')).split(':')[1]).not.toBe(upstream1);
    expect((await c1.ask(pb, 'y')).startsWith('b:')).toBe(true);
    expect(forwarder.load()).toMatchObject({ sessions: 3 });
    expect(forwarder.load().bytes_in).toBe('helloagainxy'.length);
    expect(forwarder.load().bytes_out).toBeGreaterThan(0);
    expect(log.some((l) => l.includes(`port ${pa} forwards to ${HOST}:${a.port} (N1/a/router)`))).toBe(true);
  });

  it('keeps the flows of an unchanged port across a new table, moves a port whose target changed, and closes a port that went', async () => {
    const [a, b] = [await center('a'), await center('b')];
    const c = await client();
    sockets.push(a.socket, b.socket, c.socket);
    const [pa, pb] = [await freePort(), await freePort()];
    forwarder = new Forwarder({ log: () => undefined }, { bindHost: HOST });
    const fa = { port: pa, host: HOST, target_port: a.port, label: 'a' };
    await forwarder.apply([fa, { port: pb, host: HOST, target_port: a.port, label: 'b' }]);
    const upstream = (await c.ask(pa, '1')).split(':')[1];
    await c.ask(pb, '1');

    // pa unchanged, pb now to center b.
    await forwarder.apply([fa, { port: pb, host: HOST, target_port: b.port, label: 'b' }]);
    expect((await c.ask(pa, '2')).split(':')[1]).toBe(upstream);
    expect((await c.ask(pb, '2')).startsWith('b:')).toBe(true);

    // pb gone: closed (nothing answers there any more).
    await forwarder.apply([fa]);
    expect(forwarder.ports()).toEqual([pa]);
    await expect(c.ask(pb, '3')).rejects.toThrow(/no answer/);
  });

  it('forgets a flow idle for longer than its idle time', async () => {
    const a = await center('a');
    const c = await client();
    sockets.push(a.socket, c.socket);
    const pa = await freePort();
    forwarder = new Forwarder({ log: () => undefined }, { bindHost: HOST, idleMs: 0 });
    await forwarder.apply([{ port: pa, host: HOST, target_port: a.port, label: 'a' }]);
    await c.ask(pa, '1');
    expect(forwarder.load().sessions).toBe(1);
    forwarder.forgetIdle(Date.now() + 1);
    expect(forwarder.load().sessions).toBe(0);
    // The client's next packet opens a new flow.
    expect((await c.ask(pa, '2')).startsWith('a:')).toBe(true);
  });
});
