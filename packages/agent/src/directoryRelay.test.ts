import net, { type AddressInfo } from 'node:net';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { DIRECTORY_RELAY } from '@hublink/contract';
import { DeviceClient } from './client';
import { Scheduler } from './scheduler';
import { SimulatedDevice } from './simulated';
import { FakeGateway } from './testing/fakeGateway';

/*
 * The agent's side of the directory relay (LDAP private mode, issue 33), against a gateway of the
 * tests' own: connections only to the target the gateway named, bytes both ways, ends both ways.
 * (packages/server/src/dataplane/ldapPrivate.test.ts runs it with slapd in a namespace.)
 */

let gateway: FakeGateway;
let scheduler: Scheduler;
let client: DeviceClient;
/** A TCP service answering each line with its upper case; `accepted` counts its connections. */
let service: net.Server;
let accepted = 0;
let sockets: net.Socket[] = [];
let port = 0;

beforeEach(async () => {
  gateway = new FakeGateway();
  const url = await gateway.start();
  scheduler = new Scheduler();
  accepted = 0;
  sockets = [];
  service = net.createServer((socket) => {
    accepted++;
    sockets.push(socket);
    socket.on('data', (d) => socket.write(d.toString().toUpperCase()));
  });
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  port = (service.address() as AddressInfo).port;
  client = new DeviceClient({
    url,
    identity: { kind: 'router', router_name: 'branch1' },
    secret: 's3cret',
    device: new SimulatedDevice({ kind: 'router', name: 'branch1', scheduler, linkDelayMs: [5, 20] }),
    scheduler,
    log: () => {},
  });
  client.start();
  await expect.poll(() => client.state).toBe('connected');
});

afterEach(async () => {
  await client.stop();
  scheduler.stop();
  await gateway.stop();
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => service.close(resolve));
});

const opened = (id: string) => gateway.received('directory_opened').find((m) => m.id === id);
const dataOf = (id: string) => Buffer.concat(gateway.received('directory_data').filter((m) => m.id === id).map((m) => Buffer.from(m.data, 'base64'))).toString();

it('opens nothing without a named target, and nothing but the named host and port', async () => {
  const s = gateway.last;
  s.send({ type: 'directory_open', id: 'a', host: '127.0.0.1', port });
  await expect.poll(() => opened('a')).toEqual({ type: 'directory_opened', id: 'a', ok: false, error: 'not_named' });
  s.send({ type: 'directory_target', host: '127.0.0.1', port });
  s.send({ type: 'directory_open', id: 'b', host: '127.0.0.1', port: port === 65535 ? 1 : port + 1 });
  s.send({ type: 'directory_open', id: 'c', host: '127.0.0.2', port });
  await expect.poll(() => opened('c')?.error).toBe('not_named');
  expect(opened('b')).toEqual({ type: 'directory_opened', id: 'b', ok: false, error: 'not_named' });
  // A target named away ('' : none) refuses again.
  s.send({ type: 'directory_target', host: '', port: 0 });
  s.send({ type: 'directory_open', id: 'd', host: '127.0.0.1', port });
  await expect.poll(() => opened('d')?.error).toBe('not_named');
  expect(accepted).toBe(0);
  expect(gateway.invalid).toEqual([]);
});

it('relays the bytes of a connection to the named target both ways, and ends it either way', async () => {
  const s = gateway.last;
  s.send({ type: 'directory_target', host: '127.0.0.1', port });
  s.send({ type: 'directory_open', id: 'x', host: '127.0.0.1', port });
  await expect.poll(() => opened('x')).toEqual({ type: 'directory_opened', id: 'x', ok: true, error: '' });
  s.send({ type: 'directory_data', id: 'x', data: Buffer.from('hello directory\n').toString('base64') });
  await expect.poll(() => dataOf('x')).toBe('HELLO DIRECTORY\n');
  // More than one message's worth comes back in messages of at most chunkBytes.
  const big = 'a'.repeat(DIRECTORY_RELAY.chunkBytes * 2 + 10);
  for (let at = 0; at < big.length; at += DIRECTORY_RELAY.chunkBytes) s.send({ type: 'directory_data', id: 'x', data: Buffer.from(big.slice(at, at + DIRECTORY_RELAY.chunkBytes)).toString('base64') });
  await expect.poll(() => dataOf('x').length).toBe(16 + big.length);
  expect(gateway.received('directory_data').every((m) => Buffer.from(m.data, 'base64').length <= DIRECTORY_RELAY.chunkBytes)).toBe(true);
  expect(client.connectionsRelayed).toBe(1);
  // The server ends it: the connection closes, without a close back.
  s.send({ type: 'directory_close', id: 'x', error: '' });
  await expect.poll(() => client.connectionsRelayed).toBe(0);
  expect(gateway.received('directory_close')).toEqual([]);

  // The directory ends one: the gateway hears of it.
  s.send({ type: 'directory_open', id: 'y', host: '127.0.0.1', port });
  await expect.poll(() => opened('y')?.ok).toBe(true);
  for (const socket of sockets) socket.destroy();
  await expect.poll(() => gateway.received('directory_close')).toEqual([{ type: 'directory_close', id: 'y', error: '' }]);
  expect(client.connectionsRelayed).toBe(0);
});

it('answers a failed connection with its error', async () => {
  const s = gateway.last;
  // A port with nothing behind it.
  const free = net.createServer();
  await new Promise<void>((resolve) => free.listen(0, '127.0.0.1', resolve));
  const closed = (free.address() as AddressInfo).port;
  await new Promise((resolve) => free.close(resolve));
  s.send({ type: 'directory_target', host: '127.0.0.1', port: closed });
  s.send({ type: 'directory_open', id: 'z', host: '127.0.0.1', port: closed });
  await expect.poll(() => opened('z')).toEqual({ type: 'directory_opened', id: 'z', ok: false, error: 'ECONNREFUSED' });
});
