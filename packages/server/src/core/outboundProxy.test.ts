import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type WebhookReceiver } from '../../test/webhookReceiver';
import { loadConfig, type OutboundProxy } from '../config';
import { PROVIDERS } from '../modules/auth-source/providers';
import { ProviderRefusal } from '../modules/auth-source/providers/types';
import { sendWebhook } from '../modules/monitor/providers';
import { startWecom } from '../../test/providers/wecom';
import { OutboundError, outboundRequest } from './outbound';
import { bypassesProxy } from './outboundProxy';

/*
 * Outbound HTTP through the operator's proxy (HTTPS_PROXY / HTTP_PROXY / NO_PROXY): a small proxy
 * written here (absolute-URL forwarding for http://, a CONNECT tunnel for https://) records what went
 * through it; a webhook receiver checks that the provider's signed message arrived whole.
 */

const SECRET = 'SECproxy0123456789';

interface Recorded {
  method: string;
  target: string;
  /** The first byte the client sent through a CONNECT tunnel (0x16: a TLS handshake). */
  firstByte?: number;
}

let hooks: WebhookReceiver;
let proxy: { url: string; seen: Recorded[]; close(): Promise<void> };

beforeAll(async () => {
  hooks = await startWebhookReceiver(SECRET);
  const seen: Recorded[] = [];
  const server = http.createServer((req, res) => {
    // A forward proxy gets the absolute URL.
    seen.push({ method: req.method ?? '', target: req.url ?? '' });
    const upstream = http.request(req.url ?? '', { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  const tunnels = new Set<net.Socket>();
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    tunnels.add(client);
    client.on('close', () => tunnels.delete(client));
    const record: Recorded = { method: 'CONNECT', target: req.url ?? '' };
    seen.push(record);
    const [host, port] = (req.url ?? '').split(':');
    const upstream = net.connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    client.once('data', (chunk: Buffer) => (record.firstByte = chunk[0]));
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => {
      server.closeAllConnections();
      for (const s of tunnels) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
});

afterAll(async () => {
  await proxy.close();
  await hooks.close();
});

beforeEach(() => {
  proxy.seen.length = 0;
});

const through = (noProxy: string[] = []): OutboundProxy => ({ http: proxy.url, https: proxy.url, noProxy });

describe('outbound calls through a proxy', () => {
  it('reads HTTPS_PROXY, HTTP_PROXY and NO_PROXY (either case) once, and refuses a proxy that is not a URL', () => {
    expect(loadConfig({ HTTPS_PROXY: 'http://proxy.corp:3128', http_proxy: 'http://p2.corp:8080', NO_PROXY: 'localhost, .corp.example,10.0.0.0/8' }).outboundProxy).toEqual({
      https: 'http://proxy.corp:3128',
      http: 'http://p2.corp:8080',
      noProxy: ['localhost', '.corp.example', '10.0.0.0/8'],
    });
    expect(loadConfig({}).outboundProxy).toEqual({ http: undefined, https: undefined, noProxy: [] });
    expect(() => loadConfig({ HTTPS_PROXY: 'proxy.corp:3128' })).toThrow(/HTTPS_PROXY/);
    expect(() => loadConfig({ HTTP_PROXY: 'socks5://proxy.corp:1080' })).toThrow(/HTTP_PROXY/);
  });

  it('reads NO_PROXY as curl does: every host, a domain and its subdomains, a port, an address or range', () => {
    const u = (s: string) => new URL(s);
    expect(bypassesProxy(u('https://oapi.dingtalk.com/robot/send'), ['*'])).toBe(true);
    for (const entry of ['dingtalk.com', '.dingtalk.com', '*.dingtalk.com']) {
      expect(bypassesProxy(u('https://oapi.dingtalk.com/x'), [entry])).toBe(true);
      expect(bypassesProxy(u('https://dingtalk.com/x'), [entry])).toBe(true);
      expect(bypassesProxy(u('https://notdingtalk.com/x'), [entry])).toBe(false);
    }
    expect(bypassesProxy(u('https://hooks.example.com/x'), ['hooks.example.com:443'])).toBe(true);
    expect(bypassesProxy(u('https://hooks.example.com:8443/x'), ['hooks.example.com:443'])).toBe(false);
    expect(bypassesProxy(u('http://10.1.2.3/x'), ['10.0.0.0/8'])).toBe(true);
    expect(bypassesProxy(u('http://11.1.2.3/x'), ['10.0.0.0/8'])).toBe(false);
    expect(bypassesProxy(u('http://[::1]:8080/x'), ['::1'])).toBe(true);
    expect(bypassesProxy(u('http://127.0.0.1/x'), ['localhost'])).toBe(false);
  });

  it('sends a webhook through the proxy, signed and whole (an http:// target: the absolute URL)', async () => {
    const before = hooks.received.length;
    const result = await sendWebhook(
      { allowPrivateTargets: true, outboundProxy: through() } as Parameters<typeof sendWebhook>[0],
      { type: 'dingtalk', url: `${hooks.url}/dingtalk?access_token=viaproxy`, secret: SECRET },
      { event: 'test', title: '代理测试', text: '经由代理', at: Date.now(), time: '' },
    );
    expect(result).toEqual({ ok: true });
    expect(proxy.seen).toHaveLength(1);
    expect(proxy.seen[0]).toMatchObject({ method: 'POST' });
    expect(proxy.seen[0]!.target.startsWith(`${hooks.url}/dingtalk?access_token=viaproxy&timestamp=`)).toBe(true);
    expect(hooks.received.slice(before)).toEqual([expect.objectContaining({ path: '/dingtalk', valid: true })]);
  });

  it('opens a CONNECT tunnel for an https:// target and speaks TLS inside it, end to end', async () => {
    // The target speaks no TLS: the handshake fails, which shows the tunnel carried TLS from us.
    const plain = net.createServer((s) => s.once('data', () => s.end()));
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    const port = (plain.address() as AddressInfo).port;
    try {
      const err = await outboundRequest({ allowPrivateTargets: true, outboundProxy: through() }, { url: `https://127.0.0.1:${port}/hook`, method: 'POST', body: '{}' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OutboundError);
      expect(proxy.seen).toEqual([{ method: 'CONNECT', target: `127.0.0.1:${port}`, firstByte: 0x16 }]);
    } finally {
      await new Promise<void>((resolve) => plain.close(() => resolve()));
    }
  });

  it('goes direct for a host NO_PROXY names', async () => {
    const before = hooks.received.length;
    const res = await outboundRequest({ allowPrivateTargets: true, outboundProxy: through(['127.0.0.1']) }, { url: `${hooks.url}/other`, method: 'POST', body: '{}' });
    expect(res.status).toBe(401);
    expect(proxy.seen).toEqual([]);
    expect(hooks.received.slice(before)).toHaveLength(1);
  });

  it('judges the target before the proxy: a private address or a local name never reaches it', async () => {
    for (const url of [`${hooks.url}/other`, 'http://localhost/hook', 'http://metadata.google.internal/computeMetadata/v1/', 'https://[::ffff:169.254.169.254]/latest']) {
      const err = await outboundRequest({ allowPrivateTargets: false, outboundProxy: through() }, { url, method: 'POST', body: '{}' }).catch((e: unknown) => e);
      expect(err).toMatchObject({ reason: 'private_address' });
    }
    expect(proxy.seen).toEqual([]);
  });

  it("asks a sign-in provider's server API through the proxy too", async () => {
    const wecom = await startWecom([{ corpId: 'wwproxy01', agentId: '1000002', secret: 'right-secret', trustedDomain: 'console.example.com' }]);
    try {
      const urls = { ...loadConfig({}).authProviders, wecomApi: wecom.url };
      const app = { type: 'wechat' as const, app_id: 'wwproxy01', app_secret: 'wrong-secret', agent_id: '1000002', corp_id: 'wwproxy01' };
      // The provider refuses the secret: what matters is that its API was asked through the proxy.
      await expect(PROVIDERS.wechat.identify({ urls, proxy: through() }, app, 'code')).rejects.toBeInstanceOf(ProviderRefusal);
      expect(proxy.seen.map((r) => ({ method: r.method, target: r.target.replace(/\?.*$/, '') }))).toEqual([{ method: 'GET', target: `${wecom.url}/cgi-bin/gettoken` }]);
      expect(wecom.received.map((r) => r.path)).toEqual(['/cgi-bin/gettoken']);
    } finally {
      await wecom.close();
    }
  });

  it('without a proxy configured, connects direct as before', async () => {
    const res = await outboundRequest({ allowPrivateTargets: true, outboundProxy: { noProxy: [] } }, { url: `${hooks.url}/other`, method: 'POST', body: '{}' });
    expect(res.status).toBe(401);
    expect(proxy.seen).toEqual([]);
  });
});
