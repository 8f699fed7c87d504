import { siteInfo } from '@hublink/contract';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test/helpers';

describeEachDatabase('GET /site/info', (t) => {
  /** The brands the app runs with: the built-in ones (the test config sets no HUBLINK_BRANDS). */
  const brands = () => t().ctx.config.brands;
  const brandFor = async (host: string) => {
    const res = await t().call(siteInfo, { headers: { host } });
    expect(res.code).toBe(200);
    return res.data!.brand;
  };

  it('localhost, with or without a port, and loopback addresses are the local own brand', async () => {
    for (const host of ['localhost', 'localhost:8080', 'LOCALHOST:5173', '127.0.0.1:8080', '[::1]:8080']) {
      expect(await brandFor(host), host).toEqual(brands().localhost);
    }
    expect((await brandFor('localhost')).own).toBe(true);
  });

  it('each built-in host has its brand; a subdomain takes its parent domain brand', async () => {
    expect(await brandFor('console.hublink.cn')).toEqual(brands()['console.hublink.cn']);
    expect(await brandFor('partner.hublink.cn')).toMatchObject({ logo: 'green', own: false });
    expect(await brandFor('oem.hublink.cn:443')).toMatchObject({ logo: 'orange', own: false });
    expect(await brandFor('www.hublink.cn')).toEqual(brands()['hublink.cn']);
  });

  it('an unknown host is not an own host', async () => {
    for (const host of ['example.com', 'evilhublink.cn', 'hublink.cn.evil.com', 'localhost.evil.com']) {
      expect(await brandFor(host), host).toMatchObject({ own: false, logo: 'default' });
    }
  });
});
