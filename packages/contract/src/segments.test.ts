import { describe, expect, it } from 'vitest';
import { M } from './messages';
import { editCenterGateway, editPrefix, setCenterLink, setFixedPort } from './networkSegments';
import { formatCidr, ipToNumber, isNetworkAddress, networkAddress, numberToIp, overlaps, parseCidr } from './segments';

const messageOf = (r: { success: boolean; error?: { issues: { message: string }[] } }) => (r.success ? null : r.error!.issues[0]!.message);

describe('IPv4 segments', () => {
  it('reads and writes dotted quads, refusing octets past 255 and other shapes', () => {
    expect(ipToNumber('10.1.2.3')).toBe(0x0a010203);
    expect(ipToNumber('255.255.255.255')).toBe(0xffffffff);
    expect(numberToIp(0xffffffff)).toBe('255.255.255.255');
    expect(numberToIp(0xc0a80001)).toBe('192.168.0.1');
    for (const bad of ['256.0.0.1', '1.2.3', '1.2.3.4.5', 'a.b.c.d', '', ' 1.2.3.4', '1.2.3.4/8']) expect(ipToNumber(bad), bad).toBeUndefined();
  });

  it('finds the network address of an address under a mask', () => {
    expect(networkAddress('10.1.2.3', 16)).toBe('10.1.0.0');
    expect(networkAddress('192.168.1.77', 24)).toBe('192.168.1.0');
    expect(networkAddress('172.31.255.255', 12)).toBe('172.16.0.0');
    expect(networkAddress('203.0.113.9', 32)).toBe('203.0.113.9');
    expect(networkAddress('203.0.113.9', 0)).toBe('0.0.0.0');
    expect(networkAddress('255.255.255.255', 1)).toBe('128.0.0.0');
    expect(networkAddress('10.0.0.1', 33)).toBeUndefined();
    expect(networkAddress('10.0.0.1', 1.5)).toBeUndefined();
    expect(isNetworkAddress('10.1.0.0', 16)).toBe(true);
    expect(isNetworkAddress('10.1.0.1', 16)).toBe(false);
  });

  it('parses a.b.c.d/n', () => {
    expect(parseCidr('10.8.0.0/16')).toEqual({ ip: '10.8.0.0', mask: 16 });
    expect(formatCidr({ ip: '10.8.0.0', mask: 16 })).toBe('10.8.0.0/16');
    for (const bad of ['10.8.0.0', '10.8.0.0/', '10.8.0.0/33', '10.8.0.0/-1', '10.8.0.0/1a', '10.8.0/16', '/16', '']) expect(parseCidr(bad), bad).toBeUndefined();
  });

  it('tells overlapping blocks, in either order, from neighbours', () => {
    const s = (t: string) => parseCidr(t)!;
    expect(overlaps(s('10.0.0.0/8'), s('10.200.1.0/24'))).toBe(true);
    expect(overlaps(s('10.200.1.0/24'), s('10.0.0.0/8'))).toBe(true);
    expect(overlaps(s('10.1.0.0/16'), s('10.1.0.0/16'))).toBe(true);
    expect(overlaps(s('10.1.0.0/16'), s('10.2.0.0/16'))).toBe(false);
    expect(overlaps(s('192.168.0.0/24'), s('192.168.1.0/24'))).toBe(false);
    expect(overlaps(s('192.168.0.0/23'), s('192.168.1.0/24'))).toBe(true);
    expect(overlaps(s('0.0.0.0/0'), s('8.8.8.8/32'))).toBe(true);
    expect(overlaps({ ip: 'x', mask: 8 }, s('10.0.0.0/8'))).toBe(false);
  });
});

describe('the segment calls’ rules', () => {
  it('prefixes: corrected to their mask, duplicates after correction refused, ge and le in order', () => {
    const parse = (prefix: unknown[]) => editPrefix.body.safeParse({ network_number: 'N1', prefix });
    const r = parse([{ ip: '10.1.2.3', mask: '16', ge: '', le: '' }]);
    expect(r.success && r.data.prefix).toEqual([{ ip: '10.1.0.0', mask: 16, name: '', permission: undefined, ge: undefined, le: undefined }]);
    expect(messageOf(parse([{ ip: '10.1.2.3', mask: 16 }, { ip: '10.1.0.0', mask: 16 }]))).toBe(M.segPrefixRepeat);
    expect(messageOf(parse([{ ip: '', mask: 16 }]))).toBe(M.segPrefixIpRequired);
    expect(messageOf(parse([{ ip: '0.1.2.3', mask: 16 }]))).toBe(M.segPrefixIpInvalid);
    expect(messageOf(parse([{ ip: '10.1.2.3', mask: 7 }]))).toBe(M.segPrefixMaskRange);
    expect(messageOf(parse([{ ip: '10.1.2.3', mask: 16, ge: 16 }]))).toBe(M.segPrefixMatchRange);
    expect(messageOf(parse([{ ip: '10.1.2.3', mask: 16, ge: 24, le: 20 }]))).toBe(M.segPrefixMatchRange);
    expect(messageOf(parse([{ ip: '10.1.2.3', mask: 16, le: 33 }]))).toBe(M.segPrefixMatchRange);
    expect(parse([{ ip: '10.1.2.3', mask: 16, ge: 17, le: 32 }]).success).toBe(true);
    expect(parse([{ ip: '10.1.2.3', mask: 16, le: 16 }]).success).toBe(true);
  });

  it('fixed ports: required fields, range, and the two services apart', () => {
    const parse = (router_service: unknown, software_service: unknown = null) => setFixedPort.body.safeParse({ network_number: 'N1', router_name: 'h1', router_service, software_service });
    expect(parse({ public_ip: '', public_port: '', static_port: '' }).success).toBe(true);
    expect(messageOf(parse({ public_ip: '1.2.3.4' }))).toBe('公网端口不能为空！');
    expect(messageOf(parse({ public_port: 2000 }))).toBe('本地端口不能为空！');
    expect(messageOf(parse({ public_port: 1024, static_port: 2000 }))).toBe(M.segPortRange);
    expect(messageOf(parse({ public_port: '123456', static_port: 2000 }))).toBe(M.segPortRange);
    expect(messageOf(parse({ public_ip: '1.2.3', public_port: 2000, static_port: 2000 }))).toBe(M.segPublicIpInvalid);
    expect(messageOf(parse({ public_port: 2000, static_port: 3000 }, { public_port: 2001, static_port: 3000 }))).toBe(M.segLocalPortSame);
    expect(messageOf(parse({ public_port: 2000, static_port: 3000 }, { public_port: 2000, static_port: 3001 }))).toBe(M.segPublicSame);
    expect(parse({ public_ip: '1.2.3.4', public_port: 2000, static_port: 3000 }, { public_port: 2000, static_port: 3001 }).success).toBe(true);
  });

  it('center segments: required, valid, a network address, masks 16 to 24, the two apart', () => {
    const parse = (router_network: unknown, software_network: unknown = { gateway: '10.9.0.0', mask: 16 }) =>
      editCenterGateway.body.safeParse({ network_number: 'N1', router_name: 'h1', router_network, software_network });
    expect(parse({ gateway: '10.8.0.0', mask: '16' }).success).toBe(true);
    expect(messageOf(parse({ gateway: '', mask: 16 }))).toBe(M.segGatewayRequired);
    expect(messageOf(parse(undefined))).toBe(M.segGatewayRequired);
    expect(messageOf(parse({ gateway: '10.8.0', mask: 16 }))).toBe(M.segGatewayInvalid);
    expect(messageOf(parse({ gateway: '10.8.0.1', mask: 16 }))).toBe(M.segGatewayFormat);
    expect(messageOf(parse({ gateway: '10.8.0.0', mask: 25 }))).toBe(M.segMaskRange);
    expect(messageOf(parse({ gateway: '10.8.0.0', mask: 15 }))).toBe(M.segMaskRange);
    expect(messageOf(parse({ gateway: '10.9.0.0', mask: 24 }))).toBe(M.segSoftwareSame);
  });

  it('twin-center link: checked only to enable', () => {
    const parse = (v: object) => setCenterLink.body.safeParse({ network_number: 'N1', enable: 1, ...v });
    expect(setCenterLink.body.safeParse({ network_number: 'N1', enable: 0 }).success).toBe(true);
    expect(messageOf(parse({ gateway: '10.7.0.0', mask: 16 }))).toBe(M.segServerRequired);
    expect(messageOf(parse({ center_router_name: 'h1' }))).toBe(M.segLinkGatewayRequired);
    expect(messageOf(parse({ center_router_name: 'h1', public_ip: '1.2.3.4' }))).toBe(M.segPublicPortRequired);
    expect(messageOf(parse({ center_router_name: 'h1', public_ip: '1.2.3.4', public_port: 2000 }))).toBe(M.segLocalPortRequired);
    expect(messageOf(parse({ center_router_name: 'h1', gateway: '10.7.0.1', mask: 16 }))).toBe(M.segGatewayFormat);
    expect(parse({ center_router_name: 'h1', public_ip: '1.2.3.4', public_port: 2000, static_port: 3000 }).success).toBe(true);
    expect(parse({ center_router_name: 'h1', gateway: '10.7.0.0', mask: 16 }).success).toBe(true);
  });
});
