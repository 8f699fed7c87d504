import { siteInfo } from '@hublink/contract';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/helpers';
import { ops } from '../../test/ops';

describeEachDatabase('hublink ops brands', (t) => {
  const brandFor = async (host: string) => (await t().call(siteInfo, { headers: { host } })).data!.brand;

  it('set gives a host (and its subdomains) a brand at once, over the configured one; remove takes it back', async () => {
    expect(await brandFor('vpn.acme-example.com')).toMatchObject({ own: false, name: 'HubLink' });
    const set = await ops(t(), ['brands', 'set', 'ACME-example.com', '--name', '艾克米网络', '--logo', 'blue', '--own', '1', '--filing', '沪ICP备12345678号']);
    expect(set.code, set.err).toBe(0);
    expect(await brandFor('vpn.acme-example.com:443')).toEqual({ name: '艾克米网络', logo: 'blue', own: true, filing: '沪ICP备12345678号' });

    // An operator's entry wins over the configuration's for the same host.
    await ops(t(), ['brands', 'set', 'partner.hublink.cn', '--name', '伙伴', '--logo', 'green']);
    expect(await brandFor('partner.hublink.cn')).toMatchObject({ name: '伙伴', own: false, filing: '' });
    const listed = (await ops(t(), ['brands', 'list', '--json'])).json<{ host: string; set_by: string }[]>();
    expect(listed).toContainEqual(expect.objectContaining({ host: 'acme-example.com', set_by: 'operator' }));
    expect(listed).toContainEqual(expect.objectContaining({ host: 'partner.hublink.cn', set_by: 'operator' }));
    expect(listed).toContainEqual(expect.objectContaining({ host: 'oem.hublink.cn', set_by: 'config' }));

    expect((await ops(t(), ['brands', 'remove', 'partner.hublink.cn'])).code).toBe(0);
    expect(await brandFor('partner.hublink.cn')).toEqual(t().ctx.config.brands['partner.hublink.cn']);
    expect((await ops(t(), ['brands', 'remove', 'acme-example.com'])).code).toBe(0);
    expect(await brandFor('vpn.acme-example.com')).toMatchObject({ own: false, name: 'HubLink' });
    const again = await ops(t(), ['brands', 'remove', 'acme-example.com']);
    expect([again.code, again.err.trim()]).toEqual([1, "acme-example.com was not set with 'brands set'"]);
  });

  it('refuses a host that is not a DNS name, an unknown logo and a missing name', async () => {
    for (const [args, message] of [
      [['brands', 'set', 'http://x.com/', '--name', 'X'], '<host>: the host is a DNS name such as console.example.com'],
      [['brands', 'set', 'x.com', '--name', 'X', '--logo', 'purple'], '--logo: the logo is one of default, blue, green, orange, local'],
      [['brands', 'set', 'x.com'], '--name: --name is required'],
    ] as const) {
      const res = await ops(t(), [...args]);
      expect(res.code).toBe(2);
      expect(res.err.split('\n')[0]).toBe(message);
    }
    expect((await ops(t(), ['brands', 'list', '--json'])).json<{ host: string }[]>().map((b) => b.host)).not.toContain('x.com');
  });
});
