import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSpecialAddress, outboundRequest, OutboundError } from './outbound';

describe('outbound requests to tenant targets', () => {
  let server: http.Server;
  let port = 0;
  const seen: { method?: string; url?: string; body: string; headers: http.IncomingHttpHeaders }[] = [];
  const hanging: http.ServerResponse[] = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        seen.push({ method: req.method, url: req.url, body, headers: req.headers });
        if (req.url === '/big') return res.end(Buffer.alloc(10_000, 'x'));
        if (req.url === '/redirect') return res.writeHead(302, { location: '/elsewhere' }).end();
        if (req.url === '/hang') return void hanging.push(res.writeHead(200));
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    for (const r of hanging) r.destroy();
    await new Promise((r) => server.close(r));
  });

  const allowed = { allowPrivateTargets: true };
  const denied = { allowPrivateTargets: false };
  const failure = async (p: Promise<unknown>) => {
    const e = await p.then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(OutboundError);
    return (e as OutboundError).reason;
  };

  it('posts a body and answers status, headers and body', async () => {
    const res = await outboundRequest(allowed, { url: `http://127.0.0.1:${port}/hook?x=1`, body: '{"a":1}', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body.toString())).toEqual({ ok: true });
    expect(seen.at(-1)).toMatchObject({ method: 'POST', url: '/hook?x=1', body: '{"a":1}' });
  });

  it('refuses loopback and private targets unless allowed, by literal address and by name', async () => {
    const before = seen.length;
    expect(await failure(outboundRequest(denied, { url: `http://127.0.0.1:${port}/` }))).toBe('private_address');
    expect(await failure(outboundRequest(denied, { url: `http://localhost:${port}/` }))).toBe('private_address');
    expect(await failure(outboundRequest(denied, { url: `http://[::ffff:127.0.0.1]:${port}/` }))).toBe('private_address');
    expect(seen.length).toBe(before);
  });

  it('refuses what is not an http(s) URL, and URLs with credentials', async () => {
    expect(await failure(outboundRequest(allowed, { url: 'file:///etc/passwd' }))).toBe('invalid_url');
    expect(await failure(outboundRequest(allowed, { url: 'not a url' }))).toBe('invalid_url');
    expect(await failure(outboundRequest(allowed, { url: `http://u:p@127.0.0.1:${port}/` }))).toBe('invalid_url');
  });

  it('bounds the answer, does not follow redirects and gives up after its time', async () => {
    expect(await failure(outboundRequest(allowed, { url: `http://127.0.0.1:${port}/big`, maxBytes: 1000 }))).toBe('too_large');
    const redirect = await outboundRequest(allowed, { url: `http://127.0.0.1:${port}/redirect` });
    expect(redirect.status).toBe(302);
    expect(seen.some((s) => s.url === '/elsewhere')).toBe(false);
    expect(await failure(outboundRequest(allowed, { url: `http://127.0.0.1:${port}/hang`, timeoutMs: 200 }))).toBe('timeout');
  });

  it('knows the special-purpose ranges', () => {
    for (const a of ['10.1.2.3', '172.16.0.1', '192.168.1.1', '127.0.0.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', 'fe80::1', 'fd00::1', '::ffff:10.0.0.1'])
      expect(isSpecialAddress(a), a).toBe(true);
    for (const a of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) expect(isSpecialAddress(a), a).toBe(false);
  });
});
