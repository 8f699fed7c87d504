import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HostCommands } from './commands';
import { deleteRoute, flushOwnRoutes, readOwnRoutes, replaceRoute, replaceUnreachable, routeGet } from './routes';
import { HostLab, requireHostTools } from './testLab';

/*
 * One namespace: a veth pair (v0, 192.0.2.1/24, its peer v0p beside it) and two tun devices, hlt0 and
 * hlt1, with no carrier: routes can point at them, and `ip route get` chooses them.
 */
const TABLE = 100;

describe('the agent routes', () => {
  const lab = new HostLab('hlrt');
  let host: HostCommands;
  let ns = '';
  const ip = (...args: string[]) => host.run('ip', args);

  beforeAll(async () => {
    requireHostTools();
    await lab.removeLeftovers();
    ns = await lab.namespace('r');
    host = lab.commands(ns);
    await ip('link', 'add', 'v0', 'type', 'veth', 'peer', 'name', 'v0p');
    await ip('address', 'add', '192.0.2.1/24', 'dev', 'v0');
    for (const dev of ['v0', 'v0p']) await ip('link', 'set', dev, 'up');
    await lab.tun(ns, 'hlt0');
    await lab.tun(ns, 'hlt1');
  });
  afterAll(() => lab.close());
  afterEach(async () => {
    await flushOwnRoutes(host);
    await flushOwnRoutes(host, TABLE);
  });

  it('replaces a route through one device, with or without a gateway, and reads it back as written', async () => {
    await replaceRoute(host, { prefix: '10.1.0.0/16', devs: ['hlt0'], metric: 50 });
    await replaceRoute(host, { prefix: '10.3.0.0/16', devs: ['v0'], via: '192.0.2.2', metric: 50 });
    await replaceRoute(host, { prefix: '0.0.0.0/0', devs: ['hlt1'], metric: 5 });
    await replaceRoute(host, { prefix: '10.9.9.9/32', devs: ['hlt0'], metric: 0 });
    expect(await readOwnRoutes(host)).toEqual([
      { prefix: '0.0.0.0/0', devs: ['hlt1'], via: null, type: 'unicast', metric: 5 },
      { prefix: '10.1.0.0/16', devs: ['hlt0'], via: null, type: 'unicast', metric: 50 },
      { prefix: '10.3.0.0/16', devs: ['v0'], via: '192.0.2.2', type: 'unicast', metric: 50 },
      { prefix: '10.9.9.9/32', devs: ['hlt0'], via: null, type: 'unicast', metric: 0 },
    ]);
  });

  it('is idempotent, and replaces the route of the same prefix and metric (not of another metric)', async () => {
    await replaceRoute(host, { prefix: '10.1.0.0/16', devs: ['hlt0'], metric: 50 });
    await replaceRoute(host, { prefix: '10.1.0.0/16', devs: ['hlt0'], metric: 50 });
    await replaceRoute(host, { prefix: '10.1.0.0/16', devs: ['hlt1'], metric: 60 });
    await replaceRoute(host, { prefix: '10.1.0.0/16', devs: ['hlt1'], metric: 50 });
    expect(await readOwnRoutes(host)).toEqual([
      { prefix: '10.1.0.0/16', devs: ['hlt1'], via: null, type: 'unicast', metric: 50 },
      { prefix: '10.1.0.0/16', devs: ['hlt1'], via: null, type: 'unicast', metric: 60 },
    ]);
  });

  it('makes a multipath route of several devices, reads back its devices, and turns it into a single path', async () => {
    await replaceRoute(host, { prefix: '10.2.0.0/16', devs: ['hlt0', 'hlt1'], metric: 50 });
    await replaceRoute(host, { prefix: '10.2.0.0/16', devs: ['hlt0', 'hlt1'], metric: 50 });
    expect(await readOwnRoutes(host)).toEqual([{ prefix: '10.2.0.0/16', devs: ['hlt0', 'hlt1'], via: null, type: 'unicast', metric: 50 }]);
    expect(await ip('route', 'show', '10.2.0.0/16')).toMatch(/nexthop dev hlt0 weight 1.*\n.*nexthop dev hlt1 weight 1/);
    await replaceRoute(host, { prefix: '10.2.0.0/16', devs: ['hlt1'], metric: 50 });
    expect(await readOwnRoutes(host)).toEqual([{ prefix: '10.2.0.0/16', devs: ['hlt1'], via: null, type: 'unicast', metric: 50 }]);
  });

  it('refuses a route without a device, and a gateway for several', async () => {
    await expect(replaceRoute(host, { prefix: '10.2.0.0/16', devs: [], metric: 1 })).rejects.toThrow('route 10.2.0.0/16: no device');
    await expect(replaceRoute(host, { prefix: '10.2.0.0/16', devs: ['hlt0', 'hlt1'], via: '192.0.2.2', metric: 1 })).rejects.toThrow('a gateway needs a single device');
  });

  it('fails with the command and the kernel reason for a device that does not exist', async () => {
    await expect(replaceRoute(host, { prefix: '10.2.0.0/16', devs: ['hl99'], metric: 1 })).rejects.toThrow(
      /ip -4 route replace 10\.2\.0\.0\/16 dev hl99 proto 157 metric 1 failed \(1\): Cannot find device "hl99"/,
    );
  });

  it('keeps an unreachable route, which the kernel then refuses to route through', async () => {
    await replaceRoute(host, { prefix: '10.4.0.0/16', devs: ['hlt0'], metric: 70 });
    await replaceUnreachable(host, '10.4.0.0/16', 60);
    await replaceUnreachable(host, '10.4.0.0/16', 60);
    expect(await readOwnRoutes(host)).toEqual([
      { prefix: '10.4.0.0/16', devs: [], via: null, type: 'unreachable', metric: 60 },
      { prefix: '10.4.0.0/16', devs: ['hlt0'], via: null, type: 'unicast', metric: 70 },
    ]);
    expect(await routeGet(host, '10.4.1.1')).toBeNull();
  });

  it('deletes one route by prefix and metric, with no error when it is gone, and never another metric', async () => {
    await replaceRoute(host, { prefix: '10.1.0.0/16', devs: ['hlt0'], metric: 10 });
    await replaceUnreachable(host, '10.1.0.0/16', 20);
    await deleteRoute(host, { prefix: '10.1.0.0/16', metric: 20 });
    await deleteRoute(host, { prefix: '10.1.0.0/16', metric: 20 });
    // The kernel would take metric 0 for "any metric".
    await deleteRoute(host, { prefix: '10.1.0.0/16', metric: 0 });
    expect(await readOwnRoutes(host)).toEqual([{ prefix: '10.1.0.0/16', devs: ['hlt0'], via: null, type: 'unicast', metric: 10 }]);
    await deleteRoute(host, { prefix: '10.1.0.0/16', metric: 10 });
    expect(await readOwnRoutes(host)).toEqual([]);
  });

  it('keeps routes in the table given, apart from the main table', async () => {
    await replaceRoute(host, { prefix: '10.7.0.0/16', devs: ['hlt1'], metric: 3, table: TABLE });
    await replaceUnreachable(host, '10.8.0.0/16', 4, TABLE);
    expect(await readOwnRoutes(host)).toEqual([]);
    expect(await readOwnRoutes(host, TABLE)).toEqual([
      { prefix: '10.7.0.0/16', devs: ['hlt1'], via: null, type: 'unicast', metric: 3 },
      { prefix: '10.8.0.0/16', devs: [], via: null, type: 'unreachable', metric: 4 },
    ]);
    await deleteRoute(host, { prefix: '10.7.0.0/16', metric: 3, table: TABLE });
    expect(await readOwnRoutes(host, TABLE)).toEqual([{ prefix: '10.8.0.0/16', devs: [], via: null, type: 'unreachable', metric: 4 }]);
  });

  it('flushes only the routes with the agent protocol, of every type', async () => {
    await replaceRoute(host, { prefix: '10.1.0.0/16', devs: ['hlt0'], metric: 1 });
    await replaceRoute(host, { prefix: '10.2.0.0/16', devs: ['hlt0', 'hlt1'], metric: 1 });
    await replaceUnreachable(host, '10.4.0.0/16', 1);
    await replaceRoute(host, { prefix: '10.7.0.0/16', devs: ['hlt1'], metric: 1, table: TABLE });
    await ip('route', 'add', '10.5.0.0/16', 'dev', 'hlt0', 'proto', 'static');
    try {
      await flushOwnRoutes(host);
      await flushOwnRoutes(host);
      expect(await readOwnRoutes(host)).toEqual([]);
      expect(await readOwnRoutes(host, TABLE)).toHaveLength(1);
      expect(await ip('route', 'show', 'proto', 'static')).toMatch(/^10\.5\.0\.0\/16 dev hlt0/);
    } finally {
      await ip('route', 'del', '10.5.0.0/16', 'proto', 'static');
    }
  });

  it("answers what the kernel would use now: device, gateway and source, the longest prefix's", async () => {
    await replaceRoute(host, { prefix: '10.3.0.0/16', devs: ['v0'], via: '192.0.2.2', metric: 50 });
    await replaceRoute(host, { prefix: '10.3.3.0/24', devs: ['hlt1'], metric: 50 });
    expect(await routeGet(host, '10.3.1.1')).toEqual({ dev: 'v0', via: '192.0.2.2', src: '192.0.2.1' });
    expect(await routeGet(host, '10.3.3.3')).toEqual({ dev: 'hlt1', via: null, src: '192.0.2.1' });
    expect(await routeGet(host, '192.0.2.7')).toEqual({ dev: 'v0', via: null, src: '192.0.2.1' });
    // No default route in the namespace.
    expect(await routeGet(host, '198.51.100.1')).toBeNull();
  });

  it('loses the routes through a device that is deleted, multipath ones whole', async () => {
    await lab.tun(ns, 'hlt9');
    await replaceRoute(host, { prefix: '10.1.0.0/16', devs: ['hlt9'], metric: 1 });
    await replaceRoute(host, { prefix: '10.2.0.0/16', devs: ['hlt0', 'hlt9'], metric: 1 });
    await replaceRoute(host, { prefix: '10.3.0.0/16', devs: ['hlt0'], metric: 1 });
    await ip('tuntap', 'del', 'dev', 'hlt9', 'mode', 'tun');
    expect(await readOwnRoutes(host)).toEqual([{ prefix: '10.3.0.0/16', devs: ['hlt0'], via: null, type: 'unicast', metric: 1 }]);
  });

  it('keeps a multipath route whose device is set down, its nexthop dead until the device is up again; a single path is lost', async () => {
    await replaceRoute(host, { prefix: '10.2.0.0/16', devs: ['hlt0', 'hlt1'], metric: 1 });
    await replaceRoute(host, { prefix: '10.3.0.0/16', devs: ['hlt1'], metric: 1 });
    await ip('link', 'set', 'hlt1', 'down');
    try {
      expect(await readOwnRoutes(host)).toEqual([{ prefix: '10.2.0.0/16', devs: ['hlt0', 'hlt1'], via: null, type: 'unicast', metric: 1 }]);
      expect(await ip('route', 'show', '10.2.0.0/16')).toMatch(/nexthop dev hlt1 weight 1 dead/);
      expect(await routeGet(host, '10.2.1.1')).toMatchObject({ dev: 'hlt0' });
    } finally {
      await ip('link', 'set', 'hlt1', 'up');
    }
    expect(await ip('route', 'show', '10.2.0.0/16')).not.toMatch(/dead/);
  });
});
