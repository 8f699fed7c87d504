import type http from 'node:http';
import net from 'node:net';
import { HttpProxyAgent } from 'http-proxy-agent';
import { HttpsProxyAgent } from 'https-proxy-agent';
import type { OutboundProxy } from '../config';

/*
 * The operator's egress proxy for outbound HTTP (HTTPS_PROXY / HTTP_PROXY / NO_PROXY, read by
 * config.ts). An https:// target goes through the proxy's CONNECT tunnel (TLS end to end, the proxy
 * sees only host and port); an http:// target is sent to the proxy with its absolute URL. NO_PROXY
 * follows curl's reading: `*` is every host; `example.com`, `.example.com` and `*.example.com` are that
 * domain and its subdomains; `host:port` only that port; an IP address or CIDR range the addresses in
 * it (a target written as an address). Loopback is not bypassed unless listed.
 */

interface Bypass {
  host?: string;
  port?: number;
  range?: net.BlockList;
  all?: true;
}

function bypassOf(entry: string): Bypass {
  if (entry === '*') return { all: true };
  const cidr = /^([^/]+)\/(\d{1,3})$/.exec(entry);
  if (cidr && net.isIP(cidr[1]!)) {
    const range = new net.BlockList();
    const family = net.isIP(cidr[1]!) === 4 ? 'ipv4' : 'ipv6';
    range.addSubnet(cidr[1]!, Number(cidr[2]), family);
    return { range };
  }
  const bare = entry.replace(/^\[|\](?=:\d+$)|\]$/g, '');
  if (net.isIP(bare)) return { host: bare };
  const withPort = /^(.*):(\d+)$/.exec(entry);
  const host = (withPort ? withPort[1]! : entry).replace(/^\*?\./, '').replace(/^\[|\]$/g, '');
  return { host, ...(withPort ? { port: Number(withPort[2]) } : {}) };
}

const defaultPort = (url: URL) => (url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80);

/** Whether NO_PROXY sends this URL direct. */
export function bypassesProxy(url: URL, noProxy: string[]): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const family = net.isIP(host);
  return noProxy.map(bypassOf).some((b) => {
    if (b.all) return true;
    if (b.range) return family !== 0 && b.range.check(host, family === 4 ? 'ipv4' : 'ipv6');
    if (b.port !== undefined && b.port !== defaultPort(url)) return false;
    return host === b.host || (family === 0 && host.endsWith(`.${b.host}`));
  });
}

/** The proxy this URL goes through, or undefined for a direct connection. */
export function proxyFor(url: URL, proxy: OutboundProxy | undefined): string | undefined {
  if (!proxy) return undefined;
  const through = url.protocol === 'https:' ? proxy.https : proxy.http;
  if (!through || bypassesProxy(url, proxy.noProxy)) return undefined;
  return through;
}

/** An agent for one exchange through the proxy (no keep-alive pool shared with anything else). */
export function proxyAgent(url: URL, proxyUrl: string): http.Agent {
  return url.protocol === 'https:' ? new HttpsProxyAgent(proxyUrl, { keepAlive: false }) : new HttpProxyAgent(proxyUrl, { keepAlive: false });
}
