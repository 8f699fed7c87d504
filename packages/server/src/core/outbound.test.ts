import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardedLookup, isSpecialAddress, judgeTarget, outboundRequest, OutboundError, targetHost } from './outbound';

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

  /** Each spelling, what it stands for, and whether a tenant may name it. */
  const TARGETS: [spelling: string, host: string | undefined, refused: boolean][] = [
    // loopback in every spelling the resolver or the URL parser takes
    ['127.0.0.1', '127.0.0.1', true],
    ['127.53.1.2', '127.53.1.2', true],
    ['2130706433', '127.0.0.1', true],
    ['0x7f000001', '127.0.0.1', true],
    ['017700000001', '127.0.0.1', true],
    ['0177.0.0.1', '127.0.0.1', true],
    ['0x7f.1', '127.0.0.1', true],
    ['0x7F.0.0.1', '127.0.0.1', true],
    ['127.1', '127.0.0.1', true],
    ['127.0.1', '127.0.0.1', true],
    ['127.0.0.1.', '127.0.0.1', true],
    ['%31%32%37.0.0.1', '127.0.0.1', true],
    ['１２７.０.０.１', '127.0.0.1', true],
    ['127。0。0。1', '127.0.0.1', true],
    ['::1', '::1', true],
    ['[::1]', '::1', true],
    ['[0:0:0:0:0:0:0:1]', '::1', true],
    // unspecified
    ['0', '0.0.0.0', true],
    ['0.0.0.0', '0.0.0.0', true],
    ['0x0', '0.0.0.0', true],
    ['::', '::', true],
    ['[::]', '::', true],
    // private (RFC 1918), CGNAT, link-local and the clouds' metadata services
    ['10.0.0.1', '10.0.0.1', true],
    ['012.0.0.1', '10.0.0.1', true],
    ['167772161', '10.0.0.1', true],
    ['172.16.0.1', '172.16.0.1', true],
    ['172.31.255.255', '172.31.255.255', true],
    ['192.168.1.1', '192.168.1.1', true],
    ['0xc0a80101', '192.168.1.1', true],
    ['100.64.0.1', '100.64.0.1', true],
    ['100.100.100.200', '100.100.100.200', true],
    ['169.254.169.254', '169.254.169.254', true],
    ['2852039166', '169.254.169.254', true],
    ['0xa9.0xfe.0xa9.0xfe', '169.254.169.254', true],
    ['0251.0376.0251.0376', '169.254.169.254', true],
    ['169.254.0.23', '169.254.0.23', true],
    ['192.0.0.192', '192.0.0.192', true],
    ['fd00:ec2::254', 'fd00:ec2::254', true],
    ['[FD00:EC2::254]', 'fd00:ec2::254', true],
    ['fc00::1', 'fc00::1', true],
    ['fe80::1', 'fe80::1', true],
    ['febf::1', 'febf::1', true],
    // reserved, documentation, multicast, broadcast
    ['192.0.2.1', '192.0.2.1', true],
    ['198.18.0.1', '198.18.0.1', true],
    ['224.0.0.1', '224.0.0.1', true],
    ['255.255.255.255', '255.255.255.255', true],
    ['2001:db8::1', '2001:db8::1', true],
    ['ff02::1', 'ff02::1', true],
    // IPv6 forms that carry an IPv4 address, judged as the address they lead to
    ['[::ffff:10.0.0.1]', '::ffff:a00:1', true],
    ['::ffff:10.0.0.1', '::ffff:a00:1', true],
    ['[::ffff:7f00:1]', '::ffff:7f00:1', true],
    ['[::FFFF:127.0.0.1]', '::ffff:7f00:1', true],
    ['[0:0:0:0:0:ffff:127.0.0.1]', '::ffff:7f00:1', true],
    ['[::ffff:a9fe:a9fe]', '::ffff:a9fe:a9fe', true],
    ['[::ffff:0:a00:1]', '::ffff:0:a00:1', true],
    ['[::127.0.0.1]', '::7f00:1', true],
    ['[::8.8.8.8]', '::808:808', true],
    ['[64:ff9b::10.0.0.1]', '64:ff9b::a00:1', true],
    ['[2002:7f00:1::]', '2002:7f00:1::', true],
    ['[2002:a9fe:a9fe::1]', '2002:a9fe:a9fe::1', true],
    ['[2001::1]', '2001::1', true],
    // names reserved for one machine or one site, and names without a dot
    ['localhost', 'localhost', true],
    ['LOCALHOST', 'localhost', true],
    ['localhost.', 'localhost', true],
    ['ｌｏｃａｌｈｏｓｔ', 'localhost', true],
    ['api.localhost', 'api.localhost', true],
    ['localhost.localdomain', 'localhost.localdomain', true],
    ['printer.local', 'printer.local', true],
    ['metadata.google.internal', 'metadata.google.internal', true],
    ['METADATA.GOOGLE.INTERNAL.', 'metadata.google.internal', true],
    ['router.home.arpa', 'router.home.arpa', true],
    ['metadata', 'metadata', true],
    ['intranet', 'intranet', true],
    // public addresses and names
    ['8.8.8.8', '8.8.8.8', false],
    ['134744072', '8.8.8.8', false],
    ['0x08.0x08.0x08.0x08', '8.8.8.8', false],
    ['1.1.1.1', '1.1.1.1', false],
    ['100.63.255.255', '100.63.255.255', false],
    ['100.128.0.1', '100.128.0.1', false],
    ['172.32.0.1', '172.32.0.1', false],
    ['2606:4700:4700::1111', '2606:4700:4700::1111', false],
    ['[2400:3200::1]', '2400:3200::1', false],
    ['[::ffff:8.8.8.8]', '::ffff:808:808', false],
    ['[::ffff:808:808]', '::ffff:808:808', false],
    ['[64:ff9b::8.8.8.8]', '64:ff9b::808:808', false],
    ['[2002:808:808::1]', '2002:808:808::1', false],
    ['oapi.dingtalk.com', 'oapi.dingtalk.com', false],
    ['OAPI.DingTalk.com.', 'oapi.dingtalk.com', false],
    ['ldap.example.com', 'ldap.example.com', false],
    ['localhost.example.com', 'localhost.example.com', false],
    ['internal.example.com', 'internal.example.com', false],
    ['127.0.0.1.nip.io', '127.0.0.1.nip.io', false],
    // no host, or more than a host
    ['', undefined, true],
    ['.', undefined, true],
    ['a b', undefined, true],
    ['evil.com@127.0.0.1', undefined, true],
    ['127.0.0.1:80', undefined, true],
    ['127.0.0.1/x', undefined, true],
    ['[::1', undefined, true],
    ['999.1.1.1', undefined, true],
    ['0x100000000', undefined, true],
  ];

  it.each(TARGETS)('judges the host %j as %j (refused: %j)', (spelling, host, refused) => {
    expect(targetHost(spelling)).toBe(host);
    expect(judgeTarget(spelling, denied)).toBe(refused ? (host === undefined ? 'invalid_url' : 'private_address') : null);
    // The operator's allowPrivateTargets lifts all but a target naming no host.
    expect(judgeTarget(spelling, allowed)).toBe(host === undefined ? 'invalid_url' : null);
  });

  it.each(TARGETS.filter(([, host]) => host !== undefined))('judges %j the same inside a URL, of any scheme, with a port and a path', (spelling, host, refused) => {
    const inUrl = net.isIPv6(spelling) ? `[${spelling}]` : spelling;
    for (const url of [`http://${inUrl}/hook?x=1`, `HTTPS://${inUrl}:8443/`, `ldap://${inUrl}:389`, `ldaps://${inUrl}`]) {
      expect(targetHost(url), url).toBe(host);
      expect(judgeTarget(url, denied), url).toBe(refused ? 'private_address' : null);
    }
  });

  it('refuses a special address written in any of those spellings at delivery too, before connecting', async () => {
    const before = seen.length;
    for (const spelling of ['2130706433', '0177.0.0.1', '0x7f.1', '127.1', '0', '[::ffff:7f00:1]', '[::ffff:127.0.0.1]', 'LOCALHOST.', 'api.localhost'])
      expect(await failure(outboundRequest(denied, { url: `http://${spelling}:${port}/` })), spelling).toBe('private_address');
    expect(seen.length).toBe(before);
  });

  it('refuses a name that resolves only to special addresses when connecting (guardedLookup)', async () => {
    const lookup = (name: string) =>
      new Promise<string>((resolve) => guardedLookup(name, {}, (err, address) => resolve(err ? (err.code ?? err.message) : String(address))));
    expect(await lookup('localhost')).toBe('EHUBLINKPRIVATE');
    expect(await lookup('127.0.0.1')).toBe('EHUBLINKPRIVATE');
    expect(await lookup('2130706433')).toBe('EHUBLINKPRIVATE');
  });
});
